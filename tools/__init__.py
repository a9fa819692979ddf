"""Tools that are not the app: run from the checkout, never imported by scorepad's pages.

* ``tools/icons.py`` draws static/icons/*.png; it needs Pillow, which the app does not install.
* ``tools/loadtest/`` is the load benchmark behind ``manage.py loadtest``; it needs the test extras
  (``pip install -e '.[test]'``) and gunicorn, and runs the production server it measures.
"""

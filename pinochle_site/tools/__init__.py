"""Tools that are not the app: run by hand or by a command, never imported by a page.

* ``icons.py`` draws static/icons/*.png; it needs Pillow, which the app does not install.
* ``loadtest/`` is the load benchmark behind ``manage.py loadtest``; it needs the test extras
  (``pip install -e '.[test]'``) and gunicorn, and runs the production server it measures.
"""

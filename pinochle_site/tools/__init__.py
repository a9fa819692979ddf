"""Tools that are not the app: run by hand or by a command, never imported by a page.

* ``icons.py`` draws static/icons/*.png; it needs Pillow, which the app does not install.
* ``loadtest/`` is the load benchmark behind ``manage.py loadtest``; it needs the test extras
  (``pip install -e '.[test]'``) and gunicorn, and runs the production server it measures.
* ``benchmarks/`` holds the engine's benchmarks (the bots' strength and speed, the expert's search,
  conceding, hand reviews), each run with ``python -m pinochle_site.tools.benchmarks.<name>``;
  they need only the engine. ``manage.py practice_benchmark`` borrows ``expert_benchmark``'s
  playout speed as its yardstick of the machine.
"""

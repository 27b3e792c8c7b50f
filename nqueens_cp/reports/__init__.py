"""Reports of a comparison, made from its saved data alone (``ComparisonResults``).

* ``summary``  - statistics per (configuration, n): medians, ranges, statuses;
* ``document`` - the building blocks of a report (headings, paragraphs, tables, ...);
* ``tables``   - the report's tables and sections, built from the data;
* ``render``   - a document formatted as github markdown, grid/plain/simple text, LaTeX or HTML;
* ``plot``     - the runtime plot (PNG; matplotlib, headless, imported only when plotting);
* ``files``    - the output files of a comparison, written atomically.
"""

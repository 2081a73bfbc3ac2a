"""``python -m vtsmodel.logs PATH``: write the example mount log (:func:`synthetic._main`)."""

from vtsmodel.logs.synthetic import _main

raise SystemExit(_main())

"""The app layer of vtsmodel: inputs as controls, figures, panels, editable tables, export, pages.

It imports the core (:mod:`vtsmodel`), plotly and ipywidgets; the core never imports it.
"""

from vtsmodel.app.kernelgc import freeze_after_cells as _freeze_after_cells

_freeze_after_cells()  # in the app server's kernels only (vtsmodel.app.kernelgc)

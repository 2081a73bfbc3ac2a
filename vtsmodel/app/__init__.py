"""The app layer of vtsmodel: inputs as controls, figures, panels, editable tables, export, pages.

It imports the core (:mod:`vtsmodel`), plotly and ipywidgets; the core never imports it.
"""

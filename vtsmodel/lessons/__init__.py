"""The lessons' figure builders, view functions and panels (imports plotly and ipywidgets)."""

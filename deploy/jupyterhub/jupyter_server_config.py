"""Each student's server under the class hub (``jupyterhub_config.py`` passes this file).

The lessons in Voila with the project's template, nothing fetched off the machine, idle
kernels culled and an idle server stopped, as ``make app`` does for one machine.
"""

from vtsmodel.app.serve import quiet_logs

c = get_config()  # noqa: F821 - Jupyter's config loader provides it

#: A kernel with no page connected is stopped after this long idle [s] (as make app).
CULL_IDLE_S = 600
#: The student's server stops after this long with no activity at all [s].
SERVER_IDLE_S = 3600

c.VoilaConfiguration.template = "vtsmodel"
# Voila's server extension otherwise points the page's MathJax at a CDN (the app's own
# Voila does not): the lessons write their formulas without it.
c.ServerApp.tornado_settings = {"mathjax_url": None, "mathjax_config": None}
# Each kernel message sent at once (vtsmodel/app/_wsnodelay.py), as in make app.
c.ServerApp.kernel_websocket_connection_class = "vtsmodel.app._wsnodelay.NoDelayConnection"
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_S
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
c.ServerApp.shutdown_no_activity_timeout = SERVER_IDLE_S
c.ServerApp.terminals_enabled = False
# tornado's line about jupyter_server's ping settings left out of the log, as in make app.
quiet_logs()

// vtsmodel plot pane: draws the figure JSON of its model with Plotly.react, in place.
//
// plotly.js itself is the copy the jupyterlab-plotly extension loads into the page (it sets
// window.Plotly); each panel shows one tiny plotly output that makes it load. Nothing is
// fetched from outside the page. Updates redraw only what changed (Plotly.react diffs the
// new figure against the one on screen); updates that arrive while a draw is running are
// merged into one draw of the latest figure.

const PLOTLY_WAIT_MS = 120000;

function whenPlotly() {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    (function poll() {
      if (window.Plotly && typeof window.Plotly.react === "function") {
        resolve(window.Plotly);
      } else if (Date.now() - start > PLOTLY_WAIT_MS) {
        reject(new Error("plotly.js was not loaded by the jupyterlab-plotly extension"));
      } else {
        setTimeout(poll, 25);
      }
    })();
  });
}

export default {
  async render({ model, el }) {
    const div = document.createElement("div");
    div.className = "vtsmodel-plot-area";
    el.appendChild(div);
    let Plotly;
    try {
      Plotly = await whenPlotly();
    } catch (err) {
      div.textContent = "This plot cannot be drawn: " + err.message + ".";
      return;
    }
    let drawing = false;
    let again = false;
    const draw = async () => {
      if (drawing) {
        again = true;
        return;
      }
      drawing = true;
      try {
        do {
          again = false;
          const fig = model.get("figure");
          const layout = Object.assign({}, fig.layout || {}, { template: model.get("template") });
          if (!layout.height) layout.height = 360;
          await Plotly.react(div, fig.data || [], layout, model.get("config"));
        } while (again);
      } finally {
        drawing = false;
      }
    };
    await draw();
    model.on("change:figure", draw);
    const resize = new ResizeObserver(() => {
      if (div.offsetWidth > 0 && div.offsetHeight > 0) Plotly.Plots.resize(div);
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      model.off("change:figure", draw);
      Plotly.purge(div);
    };
  },
};

// vtsmodel plot pane: a cached base figure and a moving part, drawn in place with Plotly.react.
//
// The kernel sends the base (curves, cited points, axes) only when the slow inputs change,
// and the moving part (operating points as layout shapes, overlays) on every change. The
// base's trace objects keep their identity between draws and a moving trace equal to the
// last one keeps its object too, so Plotly.react finds the traces unchanged and redraws
// only the moved shapes and annotations. plotly.js is the copy the jupyterlab-plotly
// extension loads into the page (window.Plotly); nothing is fetched from outside.

const PLOTLY_WAIT_MS = 120000;
// A plot off screen is drawn when it comes near the screen, or once the plots near the screen
// are drawn and the page is idle, at the latest this long after: the first screen answers sooner.
const IDLE_DRAW_MS = 5000;
const NEAR_SCREEN = "600px";
// After its first draw, a plot off screen that changes is drawn when it comes near the screen, or
// once its changes have paused this long and the page is idle: a move draws what is on the screen
// first, and the page is free for the next move sooner (the planner: two figures of four).
// window.__vtsmodelOffscreenDelayMs overrides it (the browser tests).
const OFFSCREEN_DELAY_MS = 300;

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

// The page's plots near the screen draw first; one off screen waits until they are drawn
// (and the page is idle), or until it comes near the screen. A page-wide count, shared by
// every pane's module instance.
const drawsNear = (window.__vtsmodelDrawsNear = window.__vtsmodelDrawsNear || { pending: 0, waiting: [] });

function nearDrawn() {
  return drawsNear.pending === 0
    ? Promise.resolve()
    : new Promise((resolve) => drawsNear.waiting.push(resolve));
}

function doneNear() {
  drawsNear.pending -= 1;
  if (drawsNear.pending === 0) drawsNear.waiting.splice(0).forEach((resolve) => resolve());
}

// The element whose scrolling brings ``el`` onto the screen (Voila and JupyterLab scroll an element
// inside the page; the widget boxes between are "overflow: auto" but never scroll): the root the
// "near the screen" margin applies to; null (the page's viewport) while nothing scrolls yet.
function scrollRoot(el) {
  for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
    const o = getComputedStyle(n).overflowY;
    if ((o === "auto" || o === "scroll") && n.scrollHeight > n.clientHeight + 1) return n;
  }
  return null;
}

// Resolves true when ``el`` is near the screen at first sight; false otherwise, and then
// ``later`` resolves when it comes near the screen, or when the near ones are drawn and the
// page is idle (at the latest IDLE_DRAW_MS after that).
function sight(el) {
  let first = null;
  let near = null;
  const firstSight = new Promise((resolve) => (first = resolve));
  const later = new Promise((resolve) => (near = resolve));
  const seen = new IntersectionObserver(
    (entries) => {
      const now = entries.some((e) => e.isIntersecting);
      if (first) {
        first(now);
        first = null;
      }
      if (now) {
        seen.disconnect();
        near();
      }
    },
    { root: scrollRoot(el), rootMargin: NEAR_SCREEN },
  );
  seen.observe(el);
  nearDrawn().then(() => {
    if (window.requestIdleCallback) {
      window.requestIdleCallback(near, { timeout: IDLE_DRAW_MS });
    } else {
      setTimeout(near, 200);
    }
  });
  return { firstSight, later };
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// Nested merge of plain objects, as vtsmodel.app.figures.compose does (a new object).
function merged(base, extra) {
  const out = Object.assign({}, base);
  for (const [k, v] of Object.entries(extra || {})) {
    out[k] = isObject(v) && isObject(out[k]) ? merged(out[k], v) : v;
  }
  return out;
}

// What a trace may change and still be drawn by the transition path (inPlace): its values, their
// labels (text on the plot, hover text) and its name. The browser tests compare such a drawing
// with a new plot's, element by element (tests/browser/helpers.py, drawn_unlike_a_new_plot).
const VALUE_KEYS = ["x", "y", "text", "hovertext", "name"];
function withoutValues(trace) {
  const out = Object.assign({}, trace);
  for (const k of VALUE_KEYS) delete out[k];
  return out;
}

export default {
  async render({ model, el }) {
    const div = document.createElement("div");
    div.className = "vtsmodel-plot-area";
    // The layout plotly.js forces while it measures labels (a dozen times a draw) is this plot's
    // alone, not the page's: 2-4 ms less per redraw on the planner and lesson 10. Size contained
    // too (the box's height is the figure's, its width the column's), so a redraw never lays out
    // the page around it: 0.2-2.5 ms less per redraw of the planner's capacity figure (BENCHMARKS.md).
    div.style.contain = "strict";
    el.appendChild(div);
    let Plotly;
    try {
      Plotly = await whenPlotly();
    } catch (err) {
      div.textContent = "This plot cannot be drawn: " + err.message + ".";
      return;
    }
    let baseRef = null;
    let baseLayout = {};
    let baseData = [];
    let movingKeys = [];
    let movingObjs = [];
    // What plotly.js compares by identity, not by value: an axis's tick values and labels (and category
    // order), the figure's meta. The last draw's object is passed again when equal, or every draw of a
    // fresh copy redraws the ticks (a changed meta, the whole plot): a move of a mark alone on lesson 08's
    // figures drew them in 15-20 ms instead of about 4 (a bare page, BENCHMARKS.md).
    let lastSame = {};
    const keepSame = (layout) => {
      const kept = {};
      const keep = (path, obj, k) => {
        if (!(k in obj)) return;
        const json = JSON.stringify(obj[k]);
        const was = lastSame[path];
        if (was && was[0] === json) obj[k] = was[1];
        kept[path] = [json, obj[k]];
      };
      keep("meta", layout, "meta");
      for (const [name, axis] of Object.entries(layout)) {
        if (!/^[xy]axis\d*$/.test(name) || !isObject(axis)) continue;
        for (const k of ["tickvals", "ticktext", "categoryarray"]) keep(name + "." + k, axis, k);
      }
      lastSame = kept;
    };
    const layoutFor = (moving) => {
      // A fresh layout each draw (plotly writes computed ranges into it); arrays appended.
      const layout = merged(JSON.parse(JSON.stringify(baseLayout)), moving.layout || {});
      for (const key of ["shapes", "annotations"]) {
        const extra = moving[key] || [];
        if (extra.length) layout[key] = (layout[key] || []).concat(extra);
      }
      keepSame(layout);
      layout.template = model.get("template");
      if (!layout.height) layout.height = 360;
      // The plot's box keeps the figure's height: a responsive resize measures the box, and
      // an auto-height box would let it collapse to nothing.
      div.style.height = layout.height + "px";
      return layout;
    };
    const tracesFor = (moving) => {
      const incoming = moving.traces || [];
      const keys = incoming.map((t) => JSON.stringify(t));
      const objs = incoming.map((t, i) => (keys[i] === movingKeys[i] ? movingObjs[i] : t));
      movingKeys = keys;
      movingObjs = objs;
      return objs;
    };
    // A figure that asks for it (layout.transition) has a move that changes only its traces' values,
    // their labels and names (VALUE_KEYS) drawn by plotly.js's transition path (no animation:
    // duration 0): the traces redrawn under axes, shapes and annotations left as they are, about
    // half a full redraw (the planner's configurations, lessons 05 and 09: BENCHMARKS.md). That path
    // can leave a changed axis, shape or annotation stale, so any other change is drawn in full.
    let lastKey = null;
    let lastTemplate = null;
    const inPlace = (data, layout) => {
      if (!layout.transition) return layout;
      const { template, ...rest } = layout;
      const key = JSON.stringify([rest, data.map((t) => withoutValues(t))]);
      if (!(key === lastKey && template === lastTemplate)) delete layout.transition;
      lastKey = key;
      lastTemplate = template;
      return layout;
    };
    // That path without an animation leaves a bar or point that enters (one more year) unstyled, drawn
    // black: a move that changes a trace's number of points restyles the plot's marks after it, as a
    // full draw does (each drawn trace type's style, plotly.js's Plots.style); drawn in full where the
    // plot does not say its trace types.
    let lastLengths = "";
    const lengths = (data) => data.map((t) => (t.x || t.y || []).length).join(",");
    const styleModules = () => {
      const modules = div._fullLayout && div._fullLayout._visibleModules;
      return Array.isArray(modules) ? [...new Set(modules.map((m) => m.style).filter(Boolean))] : null;
    };
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
          const base = model.get("base") || { data: [], layout: {} };
          if (base !== baseRef) {
            baseRef = base;
            baseData = base.data || [];
            baseLayout = base.layout || {};
            movingKeys = [];
            movingObjs = [];
          }
          const moving = model.get("moving") || {};
          const data = baseData.concat(tracesFor(moving));
          const layout = inPlace(data, layoutFor(moving));
          const entered = Boolean(layout.transition) && lengths(data) !== lastLengths;
          lastLengths = lengths(data);
          if (entered && !styleModules()) delete layout.transition;
          await Plotly.react(div, data, layout, model.get("config"));
          if (entered && layout.transition) for (const style of styleModules() || []) style(div);
        } while (again);
      } finally {
        drawing = false;
      }
    };
    // Whether the plot is near the screen (kept once it is first drawn), and a change not drawn yet:
    // drawn when the plot comes near, or once the changes pause and the page is idle.
    let near = true;
    let pending = false;
    let timer = null;
    let closed = false;
    const drawPending = () => {
      clearTimeout(timer);
      timer = null;
      if (pending && !closed) {
        pending = false;
        draw();
      }
    };
    const drawLater = () => {
      pending = true;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (window.requestIdleCallback) window.requestIdleCallback(drawPending, { timeout: IDLE_DRAW_MS });
        else drawPending();
      }, window.__vtsmodelOffscreenDelayMs ?? OFFSCREEN_DELAY_MS);
    };
    // One draw for a change of base and moving part sent together.
    let queued = false;
    const request = () => {
      // When the kernel's change arrived: the page benchmark splits a move into reply and redraw.
      window.__vtsmodelReceived = performance.now();
      if (!near) {
        drawLater();
        return;
      }
      if (queued) return;
      queued = true;
      Promise.resolve().then(() => {
        queued = false;
        pending = false;
        draw();
      });
    };
    // The box keeps the figure's height before the first draw, so the page does not jump.
    const first = (model.get("base") || {}).layout || {};
    div.style.height = (first.height || 360) + "px";
    // Let the page's other widgets load their scripts before this plot's first (long) draw.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { firstSight, later } = sight(el);
    if (await firstSight) {
      drawsNear.pending += 1;
      try {
        await draw();
      } finally {
        doneNear();
      }
    } else {
      await later;
      await draw();
    }
    model.on("change:base", request);
    model.on("change:moving", request);
    const watch = new IntersectionObserver(
      (entries) => {
        near = entries.some((e) => e.isIntersecting);
        if (near) drawPending();
      },
      { root: scrollRoot(el), rootMargin: NEAR_SCREEN },
    );
    watch.observe(el);
    const resize = new ResizeObserver(() => {
      if (div.offsetWidth > 0 && div.offsetHeight > 0) Plotly.Plots.resize(div);
    });
    resize.observe(el);
    return () => {
      closed = true;
      clearTimeout(timer);
      watch.disconnect();
      resize.disconnect();
      model.off("change:base", request);
      model.off("change:moving", request);
      Plotly.purge(div);
    };
  },
};

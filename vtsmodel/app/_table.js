// vtsmodel editable table: rows of text cells as an HTML <table>, edited as in a spreadsheet.
//
// A cell is an <input>, read-only until a person edits it: click or move to it (Tab,
// Shift-Tab, arrow keys, Enter, Shift-Enter), type to replace its text (F2, a double-click
// or Backspace/Delete to edit it), commit with Enter, Tab or by leaving it, cancel with
// Escape. A commit sends one message, {kind: "edit", row, key, text}; the kernel answers
// with its rows and the edit's outcome (the "rows" and "status" traits, in one message),
// and only the cells whose text changed are touched. Computed columns are text, not inputs.
// The selected row ("selected") is shared with the kernel: moving to a cell of another row
// sets it, and so does the kernel's owner (a scenario chosen in a list, added, deleted); with
// "mark_selected" the row is marked (aria-current) and a click on its number selects it.

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The width [px] of a text in the table's font (tables.py's CSS: 12px sans-serif), measured
// on one canvas for every table of the page (the table need not be on the page yet).
let measurer = null;
function textWidth(text) {
  if (!measurer) {
    measurer = document.createElement("canvas").getContext("2d");
    measurer.font = "12px sans-serif";
  }
  return measurer.measureText(text).width;
}

function render({ model, el: root }) {
  const wrap = el("div", "vtsmodel-table-wrap");
  const table = el("table", "vtsmodel-table");
  const caption = table.createCaption();
  const thead = table.createTHead();
  const tbody = table.createTBody();
  wrap.style.width = "fit-content";
  wrap.style.maxWidth = "100%";
  wrap.appendChild(table);
  root.appendChild(wrap);

  let cols = [];
  let cells = []; // cells[r][c] = {td, input (null when computed), text}
  let editing = null; // {input, r, c}

  function drawCaption() {
    caption.innerHTML = model.get("caption"); // the page's own text, never a person's
    caption.hidden = !model.get("caption");
  }

  function drawHead() {
    cols = model.get("columns");
    thead.replaceChildren();
    const tr = thead.insertRow();
    const corner = el("th", "", model.get("row_header"));
    corner.scope = "col";
    tr.appendChild(corner);
    for (const col of cols) {
      const th = el("th", col.numeric ? "num" : "", col.header);
      th.scope = "col";
      th.style.minWidth = `${col.min_px}px`;
      if (col.hint) th.title = col.hint;
      tr.appendChild(th);
    }
    tbody.replaceChildren();
    cells = [];
    editing = null;
    marked = null;
  }

  function addRow() {
    const r = cells.length;
    const tr = tbody.insertRow();
    const th = el("th", "", String(r + 1));
    th.scope = "row";
    th.addEventListener("click", () => selectRow(r));
    tr.appendChild(th);
    const row = cols.map((col, c) => {
      const td = el("td", col.numeric ? "num" : "");
      let input = null;
      if (col.editable) {
        input = el("input", col.numeric ? "num" : "");
        input.type = "text";
        input.size = 1;
        input.readOnly = true;
        input.spellcheck = false;
        input.autocomplete = "off";
        input.setAttribute("aria-label", `${col.header}, ${model.get("row_header")} ${r + 1}`);
        input.dataset.r = String(r);
        input.dataset.c = String(c);
        td.appendChild(input);
      } else {
        td.classList.add("computed");
        td.setAttribute("aria-readonly", "true");
      }
      tr.appendChild(td);
      return { td, input, text: null };
    });
    cells.push(row);
  }

  function show(cell, text) {
    cell.text = text;
    if (!cell.input) {
      cell.td.textContent = text;
      return;
    }
    // an input does not widen its column to its text: its least width does (a choice's label whole)
    cell.input.style.minWidth = `${Math.ceil(textWidth(text)) + 14}px`; // its padding, the caret
    if (!(editing && editing.input === cell.input)) {
      cell.input.value = text;
      cell.input.classList.remove("pending");
    }
  }

  // The rows' texts: add or drop rows, then touch only the cells whose text changed.
  function drawRows() {
    const rows = model.get("rows");
    while (cells.length < rows.length) addRow();
    while (cells.length > rows.length) {
      const gone = cells.pop();
      if (editing && gone.some((cell) => cell.input === editing.input)) editing = null;
      tbody.deleteRow(-1);
    }
    rows.forEach((texts, r) =>
      texts.forEach((text, c) => {
        if (cells[r][c].text !== text) show(cells[r][c], text);
      }),
    );
    drawSelected();
  }

  // The selected row marked: its number in blue, aria-current for a screen reader.
  function drawSelected() {
    const marks = model.get("mark_selected");
    table.classList.toggle("marks-selected", marks);
    Array.from(tbody.rows).forEach((tr, r) => {
      const on = marks && r === model.get("selected");
      tr.classList.toggle("selected", on);
      if (on) tr.setAttribute("aria-current", "true");
      else tr.removeAttribute("aria-current");
    });
  }

  // Scroll the table (not the page) so that row r shows below the sticky head.
  function reveal(r) {
    const tr = tbody.rows[r];
    if (!tr) return;
    const box = wrap.getBoundingClientRect();
    const at = tr.getBoundingClientRect();
    const top = box.top + thead.getBoundingClientRect().height;
    if (at.top < top) wrap.scrollTop -= top - at.top;
    else if (at.bottom > box.bottom) wrap.scrollTop += at.bottom - box.bottom;
  }

  function select(r) {
    if (r === model.get("selected")) return;
    model.set("selected", r);
    model.save_changes();
  }

  // A click on a row's number: its first editable cell takes the focus (which selects the row).
  function selectRow(r) {
    if (!model.get("mark_selected") || !cells[r]) return;
    const first = cells[r].find((cell) => cell.input);
    if (first) first.input.focus();
    else select(r);
  }

  // The selection marked and in view (the kernel's may be a row scrolled out of sight).
  function onSelected() {
    drawSelected();
    reveal(model.get("selected"));
  }

  // The kernel's word on an edit: the cell shows the kernel's text, marked when rejected (the
  // reason its title) until the next edit, as the message under the table.
  function mark(cell, ok, message) {
    cell.td.classList.toggle("rejected", !ok);
    cell.input.setAttribute("aria-invalid", ok ? "false" : "true");
    cell.td.title = ok ? "" : message;
  }

  let marked = null; // the cell of the last rejected edit
  function drawStatus() {
    const s = model.get("status");
    const c = cols.findIndex((col) => col.key === s.key);
    const cell = cells[s.row] && cells[s.row][c];
    if (marked && marked !== cell && marked.input.isConnected) mark(marked, true, "");
    marked = null;
    if (!cell || !cell.input) return;
    show(cell, model.get("rows")[s.row][c]);
    mark(cell, s.ok, s.message);
    if (!s.ok) marked = cell;
  }

  function startEdit(input, text) {
    editing = { input, r: Number(input.dataset.r), c: Number(input.dataset.c) };
    input.readOnly = false;
    input.classList.add("editing");
    if (text !== undefined) input.value = text;
    input.setSelectionRange(input.value.length, input.value.length);
  }

  function stopEdit() {
    const e = editing;
    editing = null;
    e.input.readOnly = true;
    e.input.classList.remove("editing");
    return e;
  }

  function commit() {
    if (!editing) return;
    const { input, r, c } = stopEdit();
    const cell = cells[r][c];
    if (input.value === cell.text) return;
    input.classList.add("pending");
    model.send({ kind: "edit", row: r, key: cols[c].key, text: input.value });
  }

  function cancel() {
    if (!editing) return;
    const { input, r, c } = stopEdit();
    input.value = cells[r][c].text;
  }

  // Focus the editable cell nearest (r, c) in a direction: dc -1/+1 along the row, or the
  // same column dr rows away (kept inside the table).
  function move(r, c, dr, dc) {
    if (dc) {
      for (let k = c + dc; k >= 0 && k < cols.length; k += dc) {
        if (cells[r][k].input) return cells[r][k].input.focus();
      }
      return;
    }
    const row = Math.min(Math.max(r + dr, 0), cells.length - 1);
    if (cells[row][c].input) cells[row][c].input.focus();
  }

  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function onKeyDown(e) {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || input.dataset.r === undefined) return;
    const r = Number(input.dataset.r);
    const c = Number(input.dataset.c);
    let handled = true;
    if (editing && editing.input === input) {
      if (e.key === "Enter") {
        commit();
        move(r, c, e.shiftKey ? -1 : 1, 0);
      } else if (e.key === "Escape") {
        cancel();
      } else if (e.key === "Tab") {
        commit();
        handled = false; // the browser moves the focus
      } else {
        handled = false;
      }
    } else if (ARROWS[e.key] && !e.altKey && !e.ctrlKey && !e.metaKey) {
      move(r, c, ...ARROWS[e.key]);
    } else if (e.key === "Enter") {
      move(r, c, e.shiftKey ? -1 : 1, 0);
    } else if (e.key === "F2") {
      startEdit(input);
    } else if (e.key === "Backspace" || e.key === "Delete") {
      startEdit(input, "");
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      startEdit(input, e.key); // typing replaces the cell's text
    } else {
      handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation(); // not the notebook's shortcuts
    }
  }

  function onFocusIn(e) {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || input.dataset.r === undefined) return;
    select(Number(input.dataset.r));
  }

  function onFocusOut(e) {
    if (editing && editing.input === e.target) commit();
  }

  function onDblClick(e) {
    const input = e.target;
    if (input instanceof HTMLInputElement && input.dataset.r !== undefined && !editing) startEdit(input);
  }

  const onHeight = () => (wrap.style.maxHeight = model.get("max_height") || "");
  const onColumns = () => {
    drawHead();
    drawRows();
  };
  table.addEventListener("keydown", onKeyDown);
  table.addEventListener("focusin", onFocusIn);
  table.addEventListener("focusout", onFocusOut);
  table.addEventListener("dblclick", onDblClick);
  const listeners = {
    "change:caption": drawCaption,
    "change:columns": onColumns,
    "change:rows": drawRows,
    "change:status": drawStatus,
    "change:max_height": onHeight,
    "change:selected": onSelected,
    "change:mark_selected": drawSelected,
  };
  for (const [name, fn] of Object.entries(listeners)) model.on(name, fn);
  drawCaption();
  onColumns();
  onHeight();
  return () => {
    for (const [name, fn] of Object.entries(listeners)) model.off(name, fn);
  };
}

export default { render };

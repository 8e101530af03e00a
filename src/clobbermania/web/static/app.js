/* clobbermania pages: one application, a tab per game (docs/web.md).
 *
 * The page knows no rule of any game. After every action it POSTs the start position and
 * the moves played to `/api/<game>/state` and draws the answer's `svg`; which moves are
 * legal, whose turn it is, what falls, the score and who won all come from the library.
 * A square of a drawing is any element with `data-square`; the page reads nothing else of
 * the drawing. Every tab keeps its position in the URL fragment (`#clobber?board=...`).
 * Plain ES2020, no external resource. */
"use strict";

const $ = (id) => document.getElementById(id);
const MARKS = ["sel", "dest", "last", "win", "hint", "grp", "vanish"];

/** How long a clicked group stays highlighted before the board after it is drawn (ms). */
const VANISH_MS = 280;
/** How long the blocks a click moved take to fall, then to slide left into the closed
 * columns (ms); the server says which blocks move where (`fell`). */
const FALL_MS = 250;
const CLOSE_MS = 200;

/** The reader asked for less motion: moves are drawn at once. */
const reducedMotion = () => Boolean(window.matchMedia &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches);

const delay = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/* ------------------------------------------------------------------ helpers */

/** How long the page waits for an answer before it says so (the server itself answers a
 * search cut by its time limit within `time_limit * 1.5 + 2` s, or 503 when it is full);
 * `window.clobbermaniaAnswerTimeoutMs`, set before this script runs, changes it. */
const ANSWER_TIMEOUT_MS = Number(window.clobbermaniaAnswerTimeoutMs) > 0 ?
  Number(window.clobbermaniaAnswerTimeoutMs) : 60000;

/** POST `body` to /api/`name` (GET when body is undefined); the answer object, or an
 * Error carrying the server's one sentence (or saying that the server does not answer). */
async function api(name, body) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ANSWER_TIMEOUT_MS);
  const init = body === undefined ? { method: "GET", signal: abort.signal } : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    signal: abort.signal,
  };
  let resp;
  let data = null;
  try {
    try {
      resp = await fetch("/api/" + name, init);
    } catch (e) {
      throw new Error(abort.signal.aborted ?
        `the server did not answer within ${ANSWER_TIMEOUT_MS / 1000} s` :
        "the server does not answer (is `clobbermania serve` still running?)");
    }
    try { data = await resp.json(); } catch (e) { data = null; }
  } finally {
    clearTimeout(timer);
  }
  if (!resp.ok) {
    let msg = data && typeof data.error === "string" ? data.error : `HTTP ${resp.status}`;
    const retry = resp.headers.get("Retry-After");
    if (resp.status === 503 && retry) msg += ` (try again in ${retry} s)`;
    throw new Error(msg);
  }
  return data;
}

function encodeValue(v) {
  return encodeURIComponent(v).replace(/%2F/g, "/").replace(/%2C/g, ",").replace(/%3A/g, ":");
}

/** "#tab?k=v&..." from a tab name and its parameters (empty values left out). */
function fragmentOf(tab, params) {
  const parts = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    parts.push(k + "=" + encodeValue(String(v)));
  }
  return "#" + tab + (parts.length ? "?" + parts.join("&") : "");
}

/** {tab, params} of a fragment "#tab?k=v&..." ('+' is a plus, not a space). */
function parseFragment(hash) {
  const h = hash.replace(/^#/, "");
  const q = h.indexOf("?");
  const tab = q < 0 ? h : h.slice(0, q);
  const params = {};
  if (q >= 0) {
    for (const part of h.slice(q + 1).split("&")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      const k = eq < 0 ? part : part.slice(0, eq);
      const v = eq < 0 ? "" : part.slice(eq + 1);
      try { params[decodeURIComponent(k)] = decodeURIComponent(v); } catch (e) { params[k] = v; }
    }
  }
  return { tab, params };
}

const LABEL = /^(board|moves|clicks|first|graph|rules):(.*)$/i;

/** A pasted game: {board, moves, labels}. The text holds a board (rows separated by '/',
 * spaces or new lines), then moves (matching `moveRe`, separated by spaces or commas);
 * optional labels `board:`, `moves:`/`clicks:`, `first:`, `graph:`, `rules:`; move numbers
 * such as `1.` are skipped. */
function parseGame(text, moveRe) {
  const rows = [];
  const moves = [];
  const labels = {};
  let mode = "auto";
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < tokens.length; i++) {
    let t = tokens[i];
    const m = LABEL.exec(t);
    if (m) {
      const key = m[1].toLowerCase();
      let rest = m[2];
      if (key === "board") { mode = "board"; } else if (key === "moves" || key === "clicks") {
        mode = "moves";
      } else {
        if (!rest) rest = tokens[++i] || "";
        labels[key] = rest;
        continue;
      }
      if (!rest) continue;
      t = rest;
    }
    if (/^\d+\.$/.test(t)) continue;
    const pieces = t.split(",").filter(Boolean);
    if (mode === "moves" || (mode === "auto" && pieces.length && pieces.every((p) => moveRe.test(p)))) {
      if (mode === "auto") mode = "moves";
      moves.push(...pieces);
    } else {
      rows.push(t);
    }
  }
  return { board: rows.join("/"), moves, labels };
}

function download(filename, text) {
  const blob = new Blob([text], { type: "image/svg+xml" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 2000);
}

async function copyText(area) {
  try {
    await navigator.clipboard.writeText(area.value);
  } catch (e) {
    area.select();
    document.execCommand("copy");
  }
}

function fillSelect(select, from, to, chosen) {
  for (let v = from; v <= to; v++) {
    const o = document.createElement("option");
    o.value = String(v);
    o.textContent = String(v);
    if (v === chosen) o.selected = true;
    select.appendChild(o);
  }
}

/** The board A of the Solitaire Clobber paper: x on squares whose row + column is even. */
function checkerboard(rows, cols) {
  const out = [];
  for (let r = 0; r < rows; r++) {
    let row = "";
    for (let c = 0; c < cols; c++) row += (r + c) % 2 === 0 ? "x" : "o";
    out.push(row);
  }
  return out.join("/");
}

function randomBoard(rows, cols, alphabet) {
  const out = [];
  for (let r = 0; r < rows; r++) {
    let row = "";
    for (let c = 0; c < cols; c++) row += alphabet[Math.floor(Math.random() * alphabet.length)];
    out.push(row);
  }
  return out.join("/");
}

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : "");
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

const OUTCOMES = {
  L: "L: Left (Black, x) wins whoever starts",
  R: "R: Right (White, o) wins whoever starts",
  N: "N: the player to move wins",
  P: "P: the player to move loses",
};

/** One answer per key, asked once (a small cache of promises). */
class Memo {
  constructor(size = 64) { this.size = size; this.map = new Map(); }
  get(key, make) {
    if (this.map.has(key)) return this.map.get(key);
    const p = make();
    p.catch(() => this.map.delete(key));
    this.map.set(key, p);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value);
    return p;
  }
}

/* ------------------------------------------------------------------ tabs */

/** A tab: its panel, its status line ("thinking..." while a request runs, errors in red)
 * and its place in the URL fragment. */
class Tab {
  constructor(name) {
    this.name = name;
    this.panel = $("panel-" + name);
    this.statusEl = $("status-" + name);
    this.busy = 0;
    this.msg = "";
    this.err = false;
    this.started = false;
  }

  /** The answer of `endpoint`; while it runs the status line says `doing`. */
  async request(endpoint, body, doing = "thinking…") {
    this.busy++;
    this.doing = doing;
    this.showStatus();
    try {
      return await api(endpoint, body);
    } finally {
      this.busy--;
      this.showStatus();
    }
  }

  /** `promise`, the tab counted busy (data-busy, not "thinking") until it settles. */
  hold(promise) {
    this.holding = (this.holding || 0) + 1;
    this.showStatus();
    return promise.finally(() => { this.holding--; this.showStatus(); });
  }

  say(msg, err = false) {
    this.msg = msg || "";
    this.err = err;
    this.showStatus();
  }

  /** Show the status now while busy; when idle, after the current task, so that the
   * request an answer starts (the computer's reply after a state) keeps the tab busy
   * without a blink of "idle" in between. */
  showStatus() {
    clearTimeout(this.idleTimer);
    if (this.busy || this.holding) this.renderStatus();
    else this.idleTimer = setTimeout(() => { if (!this.busy && !this.holding) this.renderStatus(); }, 0);
  }

  renderStatus() {
    this.panel.dataset.busy = this.busy || this.holding ? "1" : "0";
    const parts = [];
    if (this.busy) parts.push(this.doing || "thinking…");
    if (this.msg) parts.push(this.msg);
    this.statusEl.textContent = parts.join(" ");
    this.statusEl.classList.toggle("error", this.err);
  }

  params() { return {}; }

  writeHash() {
    if (app.active === this) history.replaceState(null, "", fragmentOf(this.name, this.params()));
  }

  /** Restore from fragment parameters (an empty object: the tab's current or default). */
  load(params) { this.started = true; }

  undo() {}
  redo() {}
}

/** A board game played from a start position and a list of moves (every game but CGT). */
class BoardTab extends Tab {
  constructor(name, prefix, stateEndpoint, moveRe) {
    super(name);
    this.prefix = prefix;
    this.stateEndpoint = stateEndpoint;
    this.moveRe = moveRe;
    this.start = "";
    this.moves = [];
    this.who = [];        // who played each move: "human", "computer", "replay" or null
    this.redoStack = [];  // {move, who}, the next one last
    this.st = null;       // the last state answer
    this.seq = 0;         // bumped by every refresh: late answers of older ones are dropped
    this.selected = null;
    this.focusSquare = null;
    this.squareEls = new Map();
    this.replayTimer = null;
    this.boardEl = $(prefix + "-board");
    this.gameEl = $(prefix + "-game");
    this.bindBoard();
    const on = (id, f) => { const e = $(prefix + "-" + id); if (e) e.addEventListener("click", f); };
    on("undo", () => this.undo());
    on("redo", () => this.redo());
    on("download", () => { if (this.st) download(`${name}.svg`, this.st.svg); });
    on("copy", () => copyText(this.gameEl));
    on("load", () => this.loadPasted());
  }

  extraBody() { return {}; }

  stateBody() { return { board: this.start, moves: this.moves.slice(), ...this.extraBody() }; }

  params() {
    return { board: this.start, moves: this.moves.join(","), ...this.extraParams() };
  }

  extraParams() { return {}; }

  /** Ask the position after the moves and draw it; false when the request failed or an
   * action overtook it. */
  async refresh() {
    const seq = ++this.seq;
    // a short picture of the move before its answer is drawn (the tab is busy meanwhile)
    const shown = this.transition ? this.hold(this.transition) : null;
    this.transition = null;
    let st;
    try {
      [st] = await Promise.all([this.request(this.stateEndpoint, this.stateBody()), shown]);
    } catch (e) {
      if (seq === this.seq) { this.vanishing = null; this.say(e.message, true); this.paint(); }
      return false;
    }
    if (seq !== this.seq) return false;
    this.st = st;
    this.drawn = [this.moves.slice(), this.who.slice()];
    this.selected = null;
    this.say("");
    this.update();
    this.draw();
    this.writeHash();
    this.afterState(seq);
    return true;
  }

  /** Start from `board` with `moves`; when they are refused, the board alone (the error
   * stays shown). */
  async setGame(board, moves = [], who = null) {
    this.stopReplay();
    const prev = [this.start, this.moves, this.who];
    this.start = board;
    this.moves = moves.slice();
    this.who = who ? who.slice() : moves.map(() => null);
    this.redoStack = [];
    this.resetAnswers();
    let ok = await this.refresh();
    if (!ok && this.err && this.moves.length) {
      const msg = this.msg;
      this.moves = [];
      this.who = [];
      ok = await this.refresh();
      if (ok) this.say(msg, true);
    }
    if (!ok && this.err && this.st) [this.start, this.moves, this.who] = prev;
    return ok;
  }

  resetAnswers() {}

  loadPasted() {
    const text = this.gameEl.value.trim();
    const link = /#(clobber|impartial|solitaire|clickomania|cgt)(\?\S*)?$/.exec(text);
    if (link) {  // a shared link (or its fragment): open it as the address bar would
      history.replaceState(null, "", link[0]);
      loadFromHash();
      return;
    }
    const g = parseGame(text, this.moveRe);
    if (!g.board) {
      this.say("paste a board first (rows separated by '/' or new lines), then any moves", true);
      return;
    }
    this.applyLabels(g.labels);
    this.setGame(g.board, g.moves);
  }

  applyLabels(labels) {}

  gameText() { return `board: ${this.start}\nmoves: ${this.moves.join(" ")}`; }

  /** Change the moves with `change()`, then show the new position; when the server does
   * not answer or refuses, the moves are put back as they were (the board shown still
   * matches them), so the next action starts from what is on the screen. */
  async act(change) {
    const before = [this.moves.slice(), this.who.slice(), this.redoStack.slice()];
    change();
    const seq = this.seq + 1;
    const ok = await this.refresh();
    if (!ok && this.err && this.seq === seq) {
      // back to the moves of the board on the screen (an overtaken action's included)
      [this.moves, this.who] = this.drawn ? [this.drawn[0].slice(), this.drawn[1].slice()] : before;
      this.redoStack = before[2];
      this.drawMoveList();
    }
    return ok;
  }

  play(move, who = "human") {
    this.stopReplay();
    this.transition = this.showMove(move);
    return this.act(() => {
      this.moves.push(move);
      this.who.push(who);
      const next = this.redoStack[this.redoStack.length - 1];
      if (next && next.move === move) this.redoStack.pop(); else this.redoStack = [];
    });
  }

  /** A promise that resolves when a short picture of `move` on the current drawing has been
   * shown (null: none). */
  showMove(move) { return null; }

  undo() {
    this.stopReplay();
    if (!this.moves.length) return Promise.resolve(false);
    return this.act(() => {
      let who;
      do {
        who = this.who.pop();
        this.redoStack.push({ move: this.moves.pop(), who });
      } while (who === "computer" && this.moves.length);
    });
  }

  redo() {
    if (!this.redoStack.length) {
      const wasReplaying = this.replayTimer;
      this.stopReplay();
      if (!wasReplaying) this.say("nothing to redo");
      return Promise.resolve(false);
    }
    this.transition = this.showMove(this.redoStack[this.redoStack.length - 1].move);
    return this.act(() => {
      do {
        const e = this.redoStack.pop();
        this.moves.push(e.move);
        this.who.push(e.who);
      } while (this.redoStack.length && this.redoStack[this.redoStack.length - 1].who === "computer");
    });
  }

  /** Go to the position after the first `n` moves: back (the rest can be redone) or
   * forward along the moves that can be redone. */
  goTo(n) {
    this.stopReplay();
    return this.act(() => {
      while (this.moves.length > n) this.redoStack.push({ move: this.moves.pop(), who: this.who.pop() });
      while (this.moves.length < n && this.redoStack.length) {
        const e = this.redoStack.pop();
        this.moves.push(e.move);
        this.who.push(e.who);
      }
    });
  }

  /** Queue `moves` after the current position, to be stepped through with redo. */
  queueReplay(moves) {
    this.stopReplay();
    this.redoStack = moves.slice().reverse().map((move) => ({ move, who: "replay" }));
    this.drawMoveList();
  }

  playReplay(button) {
    if (this.replayTimer) { this.stopReplay(); return; }
    if (!this.redoStack.length) { this.say("nothing to replay: solve first"); return; }
    this.replayButton = button;
    if (button) button.textContent = "Pause";
    const step = async () => {
      const ok = await this.redo();
      if (!this.replayTimer) return;
      if (!ok || !this.redoStack.length) { this.stopReplay(); return; }
      this.replayTimer = setTimeout(step, 700);
    };
    this.replayTimer = setTimeout(step, 0);
  }

  stopReplay() {
    if (this.replayTimer) clearTimeout(this.replayTimer);
    this.replayTimer = null;
    if (this.replayButton) this.replayButton.textContent = "Play";
  }

  /* ---- drawing and input ---- */

  draw() {
    const active = document.activeElement;
    const hadFocus = this.boardEl.contains(active) && active.dataset && active.dataset.square;
    this.boardEl.innerHTML = this.st.svg;
    this.squareEls = new Map();
    for (const s of this.boardEl.querySelectorAll("[data-square]")) {
      s.setAttribute("tabindex", "-1");
      s.setAttribute("role", "button");
      s.setAttribute("aria-label", this.squareLabel(s.dataset.square));
      this.squareEls.set(s.dataset.square, s);
    }
    const keep = this.squareEls.get(this.focusSquare) || this.squareEls.values().next().value;
    if (keep) {
      keep.setAttribute("tabindex", "0");
      this.focusSquare = keep.dataset.square;
      if (hadFocus) keep.focus();
    }
    this.paint();
    if (this.gameEl && document.activeElement !== this.gameEl) this.gameEl.value = this.gameText();
    this.drawMoveList();
    for (const [id, n] of [["-rows", this.st.rows], ["-cols", this.st.cols]]) {
      // the size selectors follow the board shown (a loaded or standard board included)
      const sel = $(this.prefix + id);
      if (sel && [...sel.options].some((o) => o.value === String(n))) sel.value = String(n);
    }
  }

  /** The moves played, then (dimmed) those that can be redone; a click on one goes to the
   * position after it. */
  drawMoveList() {
    const list = $(this.prefix + "-movelist");
    if (!list) return;
    list.innerHTML = "";
    const future = this.redoStack.slice().reverse().map((e) => e.move);
    this.moves.concat(future).forEach((m, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m;
      const ahead = i >= this.moves.length;
      if (ahead) li.classList.add("future");
      if (i === this.moves.length - 1) li.classList.add("current");
      b.title = `${ahead ? "forward" : "back"} to the position after move ${i + 1}`;
      b.addEventListener("click", () => this.goTo(i + 1));
      li.appendChild(b);
      list.appendChild(li);
    });
    const cur = list.querySelector("li.current");  // keep the current move in the list's view
    if (cur && list.scrollHeight > list.clientHeight) {
      list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
    }
  }

  squareLabel(sq) { return "square " + sq; }

  /** Squares to mark, by class: {sel: [...], dest: [...], ...}. */
  marks() { return {}; }

  paint() {
    for (const e of this.squareEls.values()) e.classList.remove(...MARKS);
    for (const [cls, squares] of Object.entries(this.marks())) {
      for (const sq of squares || []) {
        const e = this.squareEls.get(sq);
        if (e) e.classList.add(cls);
      }
    }
  }

  focusOn(e) {
    for (const o of this.squareEls.values()) o.setAttribute("tabindex", "-1");
    e.setAttribute("tabindex", "0");
    this.focusSquare = e.dataset.square;
    e.focus();
  }

  /** The square drawn nearest in direction (dx, dy) from `e` (read from the drawing). */
  neighbour(e, dx, dy) {
    const centre = (x) => { const r = x.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
    const [cx, cy] = centre(e);
    let best = null;
    let bestScore = Infinity;
    for (const o of this.squareEls.values()) {
      if (o === e) continue;
      const [x, y] = centre(o);
      const along = (x - cx) * dx + (y - cy) * dy;
      if (along <= 1) continue;
      const across = Math.abs((x - cx) * dy) + Math.abs((y - cy) * dx);
      const score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = o; }
    }
    return best;
  }

  bindBoard() {
    const squareOf = (t) => (t && t.closest ? t.closest("[data-square]") : null);
    this.boardEl.addEventListener("pointerdown", (ev) => {
      const s = squareOf(ev.target);
      this.downSquare = s && ev.button === 0 ? s.dataset.square : null;
    });
    this.boardEl.addEventListener("pointerup", (ev) => {
      const from = this.downSquare;
      this.downSquare = null;
      if (!from) return;
      const under = squareOf(document.elementFromPoint(ev.clientX, ev.clientY));
      if (!under || !this.boardEl.contains(under)) return;
      const to = under.dataset.square;
      const fromEl = this.squareEls.get(from);
      if (fromEl) {
        for (const o of this.squareEls.values()) o.setAttribute("tabindex", "-1");
        fromEl.setAttribute("tabindex", "0");
        this.focusSquare = from;
      }
      if (to === from) this.tap(to); else this.drag(from, to);
    });
    this.boardEl.addEventListener("keydown", (ev) => {
      const s = squareOf(ev.target);
      if (!s) return;
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        this.tap(s.dataset.square);
        return;
      }
      if (ev.key === "Escape" && this.selected) {  // cancels a selected stone
        ev.preventDefault();
        this.selected = null;
        this.paint();
        return;
      }
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
      if (dir) {
        ev.preventDefault();
        const n = this.neighbour(s, dir[0], dir[1]);
        if (n) this.focusOn(n);
      }
    });
  }

  tap(sq) {}
  drag(from, to) {}
  update() {}
  afterState(seq) {}
}

/** Games whose moves take a stone onto another square ("a1-b1"): Clobber, impartial
 * Clobber, Solitaire Clobber. A move is chosen by clicking its two squares or dragging. */
class StoneTab extends BoardTab {
  constructor(name, stateEndpoint) {
    super(name, name, stateEndpoint, /^([a-z]+\d+|\d+)-([a-z]+\d+|\d+)$/);
    this.graph = "";
  }

  extraBody() { return this.graph ? { graph: this.graph } : {}; }

  legal() { return this.st && !this.st.game_over ? this.st.legal_moves : []; }

  canMove() { return true; }

  tap(sq) {
    if (!this.st) return;
    if (this.st.game_over) { this.say("the game is over: undo, or start a new one"); return; }
    if (!this.canMove()) {
      // the computer's move failed (the server was down, say): a click asks again
      if (!this.busy) this.afterState(this.seq); else this.say("wait: it is the computer's move");
      return;
    }
    const legal = this.legal();
    if (this.selected && legal.includes(this.selected + "-" + sq)) {
      this.play(this.selected + "-" + sq);
      return;
    }
    if (this.selected === sq) this.selected = null;
    else if (legal.some((m) => m.split("-")[0] === sq)) this.selected = sq;
    else this.selected = null;
    this.paint();
  }

  drag(from, to) {
    if (!this.st || this.st.game_over || !this.canMove()) { this.tap(to); return; }
    const m = from + "-" + to;
    if (this.legal().includes(m)) this.play(m);
    else this.say(`${m} is not a legal move here`, true);
  }

  marks() {
    const out = { last: [] };
    if (this.st && this.st.last_move) out.last = this.st.last_move.split("-");
    if (this.selected) {
      out.sel = [this.selected];
      out.dest = this.legal().filter((m) => m.split("-")[0] === this.selected).map((m) => m.split("-")[1]);
    }
    return out;
  }

  squareLabel(sq) {
    const moves = this.st ? this.legal().filter((m) => m.split("-")[0] === sq).length : 0;
    return `square ${sq}` + (moves ? `, ${plural(moves, "move", "moves")}` : "");
  }

  applyLabels(labels) {
    if ("graph" in labels) this.graph = labels.graph;
  }

  gameText() {
    return super.gameText() + (this.graph ? `\ngraph: ${this.graph}` : "");
  }
}

/* ------------------------------------------------------------------ Clobber */

class ClobberTab extends StoneTab {
  constructor() {
    super("clobber", "clobber/state");
    fillSelect($("clobber-rows"), 1, 8, 3);
    fillSelect($("clobber-cols"), 1, 8, 4);
    this.values = new Memo();
    this.solves = new Memo();
    $("clobber-new").addEventListener("click", () => this.newGame());
    $("clobber-show-wins").addEventListener("change", () => { this.paint(); this.showWins(); });
    for (const id of ["clobber-mode", "clobber-human"]) {
      $(id).addEventListener("change", () => { this.writeHash(); this.update(); this.afterState(this.seq); });
    }
    // who moves first changes the game: the same start position, replayed from its start
    $("clobber-first").addEventListener("change", () => this.setGame(this.start));
    this.wins = null;
  }

  showModeControls() {
    const vs = this.mode === "computer";
    $("clobber-human").parentElement.hidden = !vs;
    $("clobber-time").parentElement.hidden = !vs;
  }

  get mode() { return $("clobber-mode").value; }
  get human() { return $("clobber-human").value; }
  get first() { return $("clobber-first").value; }

  newGame() {
    this.graph = "";
    this.setGame(checkerboard(+$("clobber-rows").value, +$("clobber-cols").value));
  }

  extraBody() { return { ...super.extraBody(), first: this.first }; }

  extraParams() {
    return { first: this.first, mode: this.mode, human: this.mode === "computer" ? this.human : "", graph: this.graph };
  }

  load(params) {
    super.load(params);
    if (params.first === "white" || params.first === "black") $("clobber-first").value = params.first;
    if (params.mode === "human" || params.mode === "computer") $("clobber-mode").value = params.mode;
    if (params.human === "white" || params.human === "black") $("clobber-human").value = params.human;
    this.graph = params.graph || "";
    if (params.board) this.setGame(params.board, (params.moves || "").split(",").filter(Boolean));
    else if (!this.st) this.newGame();
    else this.writeHash();
  }

  applyLabels(labels) {
    super.applyLabels(labels);
    if (labels.first === "white" || labels.first === "black") $("clobber-first").value = labels.first;
  }

  gameText() { return super.gameText() + `\nfirst: ${this.first}`; }

  computerTurn() {
    return this.mode === "computer" && this.st && !this.st.game_over && this.st.to_move !== this.human;
  }

  canMove() { return !this.computerTurn(); }

  update() {
    const st = this.st;
    this.showModeControls();
    const vsComputer = this.mode === "computer";
    const whose = (colour) => (vsComputer ? (colour === this.human ? " (you)" : " (the computer)") : "");
    $("clobber-turn").textContent = st.game_over ? "" : `${cap(st.to_move)} to move${whose(st.to_move)}.`;
    const w = $("clobber-winner");
    w.dataset.winner = st.game_over ? st.winner : "";
    w.textContent = !st.game_over ? "" : `${cap(st.winner)} wins` +
      (vsComputer ? (st.winner === this.human ? ": you win!" : ": the computer wins.") : ".");
    if (!this.moves.length || this.who[this.who.length - 1] !== "computer") $("clobber-why").textContent = "";
    this.showValue();
    this.showWins();
  }

  afterState(seq) {
    if (this.computerTurn()) this.computerMove(seq);
  }

  async computerMove(seq) {
    let r;
    try {
      r = await this.request("clobber/reply", { ...this.stateBody(), time_limit: +$("clobber-time").value },
        "the computer is thinking…");
    } catch (e) {
      if (seq === this.seq) this.say(`the computer could not move: ${e.message}. Click the board to ask again.`, true);
      return;
    }
    if (seq !== this.seq || !r.move) return;
    if (await this.play(r.move, "computer")) $("clobber-why").textContent = `The computer played ${r.move}: ${r.why}.`;
  }

  async showValue() {
    const board = this.st.board;
    const body = { board, time_limit: 1, ...super.extraBody() };
    $("clobber-value").textContent = "…";
    $("clobber-value").title = "";
    $("clobber-outcome").textContent = "…";
    let r;
    try {
      r = await this.values.get(board + "|" + this.graph, () => this.request("clobber/value", body));
    } catch (e) {
      if (this.st && this.st.board === board) {
        $("clobber-value").textContent = "not known: " + e.message;
        $("clobber-outcome").textContent = "";
      }
      return;
    }
    if (!this.st || this.st.board !== board) return;
    if (r.exact === false || r.value == null) {
      $("clobber-value").textContent = "not found within the time limit";
      $("clobber-value").title = r.reason || "";
      $("clobber-outcome").textContent = r.outcome ? OUTCOMES[r.outcome] || r.outcome : "not found within the time limit";
    } else {
      $("clobber-value").textContent = r.value;
      $("clobber-outcome").textContent = OUTCOMES[r.outcome] || r.outcome;
    }
  }

  async showWins() {
    const out = $("clobber-wins");
    this.wins = null;
    if (!$("clobber-show-wins").checked || !this.st) { out.textContent = ""; return; }
    if (this.st.game_over) { out.textContent = "No move is left."; return; }
    const board = this.st.board;
    const first = this.st.to_move;
    out.textContent = "…";
    let r;
    try {
      r = await this.solves.get(`${board}|${first}|${this.graph}`, () =>
        this.request("clobber/solve", { board, first, time_limit: 3, ...super.extraBody() }));
    } catch (e) {
      if (this.st && this.st.board === board) out.textContent = e.message;
      return;
    }
    if (!this.st || this.st.board !== board || this.st.to_move !== first) return;
    if (!r.exact || !r.winner) {
      out.textContent = "Not proved within the time limit.";
    } else if (r.winner === first) {
      this.wins = r.winning_moves;
      out.textContent = `${cap(first)} wins by ${r.winning_moves.join(", ")}.`;
    } else {
      out.textContent = `${cap(first)} to move loses: every move loses against best play.`;
    }
    this.paint();
  }

  marks() {
    const out = super.marks();
    if (this.wins && $("clobber-show-wins").checked) out.win = this.wins.map((m) => m.split("-")[0]);
    return out;
  }
}

/* ------------------------------------------------------------------ Impartial */

class ImpartialTab extends StoneTab {
  constructor() {
    super("impartial", "grundy/state");
    fillSelect($("impartial-rows"), 1, 4, 1);
    fillSelect($("impartial-cols"), 1, 12, 8);
    this.options = new Memo();
    $("impartial-new").addEventListener("click", () => { this.graph = ""; this.setGame(checkerboard(+$("impartial-rows").value, +$("impartial-cols").value)); });
    $("impartial-random").addEventListener("click", () => {
      this.graph = "";
      this.setGame(randomBoard(+$("impartial-rows").value, +$("impartial-cols").value, "xxxxooooo.".split("")));
    });
    for (const id of ["impartial-mode", "impartial-human"]) {
      $(id).addEventListener("change", () => { this.writeHash(); this.update(); this.afterState(this.seq); });
    }
  }

  showModeControls() { $("impartial-human").parentElement.hidden = this.mode !== "computer"; }

  get mode() { return $("impartial-mode").value; }
  get humanPlayer() { return $("impartial-human").value === "first" ? 1 : 2; }

  extraParams() {
    return { mode: this.mode, human: this.mode === "computer" ? $("impartial-human").value : "", graph: this.graph };
  }

  load(params) {
    super.load(params);
    if (params.mode === "human" || params.mode === "computer") $("impartial-mode").value = params.mode;
    if (params.human === "first" || params.human === "second") $("impartial-human").value = params.human;
    this.graph = params.graph || "";
    if (params.board) this.setGame(params.board, (params.moves || "").split(",").filter(Boolean));
    else if (!this.st) this.setGame("xoxoxoxo");
    else this.writeHash();
  }

  computerTurn() {
    return this.mode === "computer" && this.st && !this.st.game_over && this.st.player !== this.humanPlayer;
  }

  canMove() { return !this.computerTurn(); }

  update() {
    const st = this.st;
    this.showModeControls();
    const vs = this.mode === "computer";
    const ordinal = (p) => (p === 1 ? "first" : "second");
    const whose = (p) => (vs ? (p === this.humanPlayer ? " (you)" : " (the computer)") : "");
    $("impartial-turn").textContent = st.game_over ? "" : `The ${ordinal(st.player)} player to move${whose(st.player)}.`;
    const w = $("impartial-winner");
    w.dataset.winner = st.game_over ? st.winner : "";
    const winnerPlayer = st.winner === "first" ? 1 : 2;
    w.textContent = !st.game_over ? "" : `The ${st.winner} player wins` +
      (vs ? (winnerPlayer === this.humanPlayer ? ": you win!" : ": the computer wins.") : ".");
    if (!this.moves.length || this.who[this.who.length - 1] !== "computer") $("impartial-why").textContent = "";
    this.showOptions();
  }

  afterState(seq) {
    if (this.computerTurn()) this.computerMove(seq);
  }

  async computerMove(seq) {
    let r;
    try {
      r = await this.request("grundy/reply", { ...this.stateBody(), time_limit: 2 }, "the computer is thinking…");
    } catch (e) {
      if (seq === this.seq) this.say(`the computer could not move: ${e.message}. Click the board to ask again.`, true);
      return;
    }
    if (seq !== this.seq || !r.move) return;
    if (await this.play(r.move, "computer")) $("impartial-why").textContent = `The computer played ${r.move}: ${r.why}.`;
  }

  async showOptions() {
    const board = this.st.board;
    const list = $("impartial-options");
    const g = $("impartial-grundy");
    g.textContent = "…";
    list.innerHTML = "";
    let r;
    try {
      r = await this.options.get(board + "|" + this.graph, () =>
        this.request("grundy/options", { board, time_limit: 2, ...this.extraBody() }));
    } catch (e) {
      if (this.st && this.st.board === board) g.textContent = "not known: " + e.message;
      return;
    }
    if (!this.st || this.st.board !== board) return;
    g.textContent = r.grundy == null ? "not found within the time limit" :
      `${r.grundy} (${r.grundy === 0 ? "the player to move loses" : "the player to move wins"})`;
    list.innerHTML = "";
    for (const o of r.options) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = o.move;
      b.addEventListener("click", () => { if (this.canMove() && !this.st.game_over) this.play(o.move); });
      li.appendChild(b);
      const span = document.createElement("span");
      span.textContent = ` → ${o.board}: ${o.grundy == null ? "?" : o.grundy}`;
      li.appendChild(span);
      if (o.grundy === 0) li.classList.add("winning");
      list.appendChild(li);
    }
    if (!r.options.length) list.innerHTML = "<li>no move</li>";
  }
}

/* ------------------------------------------------------------------ Solitaire */

class SolitaireTab extends StoneTab {
  constructor() {
    super("solitaire", "solitaire/state");
    fillSelect($("solitaire-rows"), 1, 8, 4);
    fillSelect($("solitaire-cols"), 1, 8, 4);
    this.solves = new Memo();
    this.hint = null;
    this.optimum = null;
    $("solitaire-new").addEventListener("click", () => { this.graph = ""; this.setGame(checkerboard(+$("solitaire-rows").value, +$("solitaire-cols").value)); });
    $("solitaire-random").addEventListener("click", () => {
      this.graph = "";
      this.setGame(randomBoard(+$("solitaire-rows").value, +$("solitaire-cols").value, ["x", "o"]));
    });
    for (const id of ["solitaire-rules", "solitaire-first"]) {
      $(id).addEventListener("change", () => this.setGame(this.start, this.moves, this.who));
    }
    $("solitaire-hint").addEventListener("click", () => this.askHint());
    $("solitaire-witness").addEventListener("click", () => this.replayWitness());
    $("solitaire-step").addEventListener("click", () => this.redo());
    $("solitaire-play").addEventListener("click", (e) => this.playReplay(e.target));
  }

  get free() { return $("solitaire-rules").value === "sc2"; }
  get first() { return $("solitaire-first").value; }

  extraBody() { return { ...super.extraBody(), first: this.first, free: this.free }; }

  extraParams() {
    return { first: this.first, rules: this.free ? "sc2" : "sc", graph: this.graph };
  }

  load(params) {
    super.load(params);
    if (["any", "black", "white"].includes(params.first)) $("solitaire-first").value = params.first;
    if (params.rules === "sc" || params.rules === "sc2") $("solitaire-rules").value = params.rules;
    this.graph = params.graph || "";
    if (params.board) this.setGame(params.board, (params.moves || "").split(",").filter(Boolean));
    else if (!this.st) this.setGame(checkerboard(4, 4));
    else this.writeHash();
  }

  applyLabels(labels) {
    super.applyLabels(labels);
    if (["any", "black", "white"].includes(labels.first)) $("solitaire-first").value = labels.first;
    if (labels.rules && ["sc", "sc2"].includes(labels.rules.toLowerCase())) $("solitaire-rules").value = labels.rules.toLowerCase();
  }

  gameText() {
    return super.gameText() + `\nrules: ${this.free ? "sc2" : "sc"}\nfirst: ${this.first}`;
  }

  resetAnswers() { this.optimum = null; }

  update() {
    const st = this.st;
    this.hint = null;
    $("solitaire-hint-move").textContent = "";
    $("solitaire-hint-move").dataset.move = "";
    $("solitaire-turn").textContent = st.game_over ? "" :
      st.to_move ? `${cap(st.to_move)} moves next.` :
        this.free ? "Any stone may move (SC2)." : "Either colour may start.";
    const left = $("solitaire-left");
    left.textContent = String(st.stones_left);
    left.dataset.value = String(st.stones_left);
    this.showOptimum();
  }

  async solve(board, first, timeLimit) {
    const body = { board, first, free: this.free, time_limit: timeLimit, ...super.extraBody() };
    return this.solves.get(JSON.stringify(body), () => this.request("solitaire/solve", body));
  }

  async showOptimum() {
    const start = this.start;
    const key = `${start}|${this.first}|${this.free}|${this.graph}`;
    const out = $("solitaire-optimum");
    if (!this.optimum || this.optimum.key !== key) {
      out.textContent = "…";
      out.dataset.value = "";
      let r;
      try {
        r = await this.solve(start, this.first, 5);
      } catch (e) {
        if (this.start === start) out.textContent = "not known: " + e.message;
        return;
      }
      if (this.start !== start) return;
      this.optimum = { key, r };
    }
    const r = this.optimum.r;
    if (r.exact) {
      out.textContent = plural(r.stones_left, "stone", "stones");
      out.dataset.value = String(r.stones_left);
    } else {
      out.textContent = `between ${r.lower_bound} and ${r.upper_bound} stones (not proved within the time limit)`;
      out.dataset.value = "";
    }
    $("solitaire-proof").textContent = r.proof ? `Proof: ${r.proof}.` : "";
    const end = $("solitaire-end");
    if (this.st && this.st.game_over) {
      const n = this.st.stones_left;
      end.textContent = `No move left: ${plural(n, "stone", "stones")} left` +
        (r.exact ? (n === r.stones_left ? ", the optimum!" : `; the optimum is ${r.stones_left}.`) : ".");
    } else {
      end.textContent = "";
    }
  }

  async askHint() {
    if (!this.st) return;
    if (this.st.game_over) { this.say("no move is left"); return; }
    const board = this.st.board;
    const first = this.st.to_move || "any";
    const out = $("solitaire-hint-move");
    let r;
    try {
      r = await this.solve(board, first, 3);
    } catch (e) {
      this.say(e.message, true);
      return;
    }
    if (!this.st || this.st.board !== board) return;
    if (!r.moves.length) { out.textContent = "No move is left."; return; }
    this.hint = r.moves[0];
    out.dataset.move = this.hint;
    out.textContent = `Hint: ${this.hint}, then ${r.exact ? "" : "at most "}` +
      `${plural(r.exact ? r.stones_left : r.upper_bound, "stone", "stones")} can be left.`;
    this.paint();
  }

  marks() {
    const out = super.marks();
    if (this.hint) out.hint = this.hint.split("-");
    return out;
  }

  async replayWitness() {
    await this.showOptimum();
    if (!this.optimum) return;
    const moves = this.optimum.r.moves;
    this.moves = [];
    this.who = [];
    this.queueReplay(moves);
    await this.refresh();
    this.say(`a solution of ${plural(moves.length, "move", "moves")}: Step or Play`);
  }
}

/* ------------------------------------------------------------------ Clickomania */

class ClickTab extends BoardTab {
  constructor() {
    super("clickomania", "click", "clickomania/state", /^[a-z]+\d+$/);
    fillSelect($("click-rows"), 2, 20, 6);
    fillSelect($("click-cols"), 2, 20, 6);
    fillSelect($("click-colors"), 2, 9, 3);
    this.hover = null;
    this.hint = null;
    this.groups = new Map();
    $("click-random").addEventListener("click", () => {
      const k = +$("click-colors").value;
      this.setGame(randomBoard(+$("click-rows").value, +$("click-cols").value, "123456789".slice(0, k).split("")));
    });
    $("click-standard").addEventListener("change", (e) => {
      const b = this.standard && this.standard[+e.target.value - 1];
      if (b) this.setGame(b.board);
    });
    $("click-hint").addEventListener("click", () => this.askHint());
    $("click-solve").addEventListener("click", () => this.solve());
    $("click-step").addEventListener("click", () => this.redo());
    $("click-play").addEventListener("click", (e) => this.playReplay(e.target));
    this.boardEl.addEventListener("pointerover", (e) => this.hoverOn(e.target));
    this.boardEl.addEventListener("focusin", (e) => this.hoverOn(e.target));
    this.boardEl.addEventListener("pointerleave", () => { this.hover = null; this.paint(); this.showGroup(); });
  }

  load(params) {
    super.load(params);
    this.loadStandard();
    if (params.board) this.setGame(params.board, (params.moves || "").split(",").filter(Boolean));
    else if (!this.st) this.setGame(randomBoard(6, 6, ["1", "2", "3"]));
    else this.writeHash();
  }

  loadStandard() {
    if (!this.standardLoading) this.standardLoading = this.fetchStandard();
    return this.standardLoading;
  }

  async fetchStandard() {
    try {
      const r = await this.request("samegame/boards");
      this.standard = r.boards;
      const sel = $("click-standard");
      sel.innerHTML = "<option value=''>choose…</option>";
      for (const b of r.boards) {
        const o = document.createElement("option");
        o.value = String(b.number);
        o.textContent = `${b.number}: ${b.rows}x${b.cols}, ${b.colors} colours`;
        sel.appendChild(o);
      }
      sel.title = r.source || "";
      this.showStandard();
    } catch (e) {
      this.standardLoading = null;
      this.say("the standard boards did not load: " + e.message, true);
    }
  }

  gameText() { return `board: ${this.start}\nclicks: ${this.moves.join(" ")}`; }

  resetAnswers() { $("click-solution").textContent = ""; }

  update() {
    const st = this.st;
    this.groups = new Map();
    st.legal_moves.forEach((g) => { for (const sq of g.squares) this.groups.set(sq, g); });
    this.hint = null;
    $("click-hint-move").textContent = "";
    $("click-hint-move").dataset.move = "";
    const score = $("click-score");
    score.textContent = String(st.score);
    score.dataset.value = String(st.score);
    $("click-left").textContent = String(st.blocks_left);
    const end = $("click-end");
    end.dataset.cleared = st.cleared ? "1" : "0";
    end.textContent = st.cleared ? "Cleared!" : st.game_over ? "(no group left)" : "";
    this.paint();
  }

  hoverOn(target) {
    const s = target && target.closest ? target.closest("[data-square]") : null;
    const g = s ? this.groups.get(s.dataset.square) || null : null;
    if (g !== this.hover) { this.hover = g; this.paint(); this.showGroup(); }
  }

  /** The clicked group highlighted for a moment (the squares come from the server's
   * groups), then the board after it drawn, the blocks the server says moved (`fell`)
   * falling and sliding there: the page learns no rule. */
  showMove(move) {
    const g = this.groups.get(move);
    if (!g) return null;
    this.vanishing = g.squares;
    this.hover = null;
    this.paint();
    this.showGroup();
    return delay(VANISH_MS);
  }

  marks() {
    const out = {};
    if (this.vanishing) { out.vanish = this.vanishing; return out; }
    if (this.hover) out.grp = this.hover.squares;
    if (this.hint) out.hint = (this.groups.get(this.hint) || { squares: [this.hint] }).squares;
    return out;
  }

  squareLabel(sq) {
    const g = this.groups && this.groups.get(sq);
    return `block ${sq}` + (g ? `, group of ${g.size} scoring ${g.points}` : "");
  }

  draw() {
    if (this.st) {
      this.groups = new Map();
      this.st.legal_moves.forEach((g) => { for (const sq of g.squares) this.groups.set(sq, g); });
    }
    // after a click, the blocks it moved are measured on the drawing still shown
    const from = this.vanishing ? this.fallFrom() : null;
    this.vanishing = null;
    super.draw();
    this.shownMoves = this.st ? this.st.moves.slice() : null;
    if (from) this.hold(this.animateFall(from));
    this.showGroup();
    this.showStandard();
  }

  /** Where each block the last click moved was drawn (its box in the drawing's units),
   * by its square after the click: the server's `fell` read on the drawing still shown
   * (null: nothing moved, or less motion asked). */
  fallFrom() {
    const fell = this.st && this.st.fell;
    const shown = this.shownMoves;  // the clicks of the drawing still shown
    const moves = this.st ? this.st.moves : [];
    if (!fell || reducedMotion() || !shown || moves.length !== shown.length + 1 ||
        shown.some((m, i) => m !== moves[i])) return null;  // not the board before the click
    const from = new Map();
    for (const [src, dst] of Object.entries(fell)) {
      const e = this.squareEls.get(src);
      if (e) { const b = e.getBBox(); from.set(dst, [b.x, b.y]); }
    }
    return from.size ? from : null;
  }

  /** Each block of `from` drawn at its old place, then falling (ease-in, as gravity), then
   * sliding left where columns closed; resolves when they are all in place. */
  async animateFall(from) {
    const moving = [];
    for (const [dst, [x, y]] of from) {
      const e = this.squareEls.get(dst);
      if (!e) continue;
      const b = e.getBBox();
      moving.push([e, x - b.x, y - b.y]);
      e.classList.add("falling");
      e.style.transition = "none";
      e.style.transform = `translate(${x - b.x}px, ${y - b.y}px)`;
    }
    this.boardEl.getBoundingClientRect();  // the blocks are drawn at their old places first
    const phase = async (ms, easing, transform, any) => {
      if (!any) return;
      for (const [e, dx] of moving) {
        e.style.transition = `transform ${ms}ms ${easing}`;
        e.style.transform = transform(dx);
      }
      await delay(ms);
    };
    await phase(FALL_MS, "ease-in", (dx) => `translate(${dx}px, 0px)`, moving.some((m) => m[2]));
    await phase(CLOSE_MS, "ease-in-out", () => "translate(0px, 0px)", moving.some((m) => m[1]));
    for (const [e] of moving) {
      e.classList.remove("falling");
      e.style.transition = "";
      e.style.transform = "";
    }
  }

  /** The standard board chooser names the board shown when it is one of them. */
  showStandard() {
    const b = this.standard && this.st && this.standard.find((x) => x.board === this.st.start);
    $("click-standard").value = b ? String(b.number) : "";
  }

  /** The hovered or focused group's size and points (the server's), next to the score. */
  showGroup() {
    const g = this.hover;
    $("click-group").textContent = g ? `· this group: ${g.size} blocks, ${plural(g.points, "point", "points")}` : "";
  }

  tap(sq) {
    if (!this.st) return;
    if (this.groups.has(sq)) {
      this.hover = null;
      const next = this.redoStack[this.redoStack.length - 1];
      if (next && next.move !== sq) $("click-solution").textContent = "";  // left the solution
      this.play(sq);
    } else {
      this.say(this.st.game_over ? "no group is left: undo, or start a new board" :
        `${sq} is a single block: only a group of two or more can be removed`);
    }
  }

  drag(from, to) { this.tap(to); }

  async askHint() {
    if (!this.st || this.st.game_over) { this.say("no group is left"); return; }
    const board = this.st.board;
    let r;
    try {
      r = await this.request("samegame/play", { board, time_limit: 1 }, "searching for a hint (1 s)…");
    } catch (e) {
      this.say(e.message, true);
      return;
    }
    if (!this.st || this.st.board !== board || !r.moves.length) return;
    this.hint = r.moves[0];
    const out = $("click-hint-move");
    out.dataset.move = this.hint;
    out.textContent = `Hint: click ${this.hint} (the search reaches ${r.score} more points from here` +
      (r.cleared ? ", clearing the board)." : ").");
    this.paint();
  }

  async solve() {
    if (!this.st || this.st.game_over) { this.say("no group is left"); return; }
    const board = this.st.board;
    const small = this.st.rows * this.st.cols <= 64;
    const out = $("click-solution");
    let r;
    try {
      r = small ? await this.request("clickomania/solve", { board, maximize: true, time_limit: 5 },
        "solving (up to 5 s)…")
        : await this.request("samegame/play", { board, time_limit: 5 }, "searching (5 s)…");
    } catch (e) {
      this.say(e.message, true);
      return;
    }
    if (!this.st || this.st.board !== board) return;
    if (small) {
      out.textContent = `Exact solver: ${r.removed} of ${r.blocks} blocks can be removed` +
        (r.solvable ? " (the board can be cleared)" : "") + (r.exact ? "" : " at least (not proved in time)") +
        (r.proof ? `; ${r.proof}.` : ".");
    } else {
      out.textContent = `Scored search: ${r.score} points from here` + (r.cleared ? ", clearing the board." : ".");
    }
    this.queueReplay(r.moves);
    this.say(`a solution of ${plural(r.moves.length, "click", "clicks")}: Step or Play`);
  }
}

/* ------------------------------------------------------------------ CGT */

class CgtTab extends Tab {
  constructor() {
    super("cgt");
    this.expr = "";
    this.svg = "";
    this.seq = 0;
    $("cgt-form").addEventListener("submit", (e) => { e.preventDefault(); this.evaluate($("cgt-input").value); });
    for (const b of $("cgt-examples").querySelectorAll("button")) {
      b.addEventListener("click", () => { $("cgt-input").value = b.textContent; this.evaluate(b.textContent); });
    }
    $("cgt-download").addEventListener("click", () => { if (this.svg) download("thermograph.svg", this.svg); });
  }

  params() { return { expr: this.expr }; }

  load(params) {
    super.load(params);
    if (params.expr) { $("cgt-input").value = params.expr; this.evaluate(params.expr); } else if (!this.expr) {
      this.evaluate($("cgt-input").value);
    } else this.writeHash();
  }

  async evaluate(expr) {
    expr = expr.trim();
    if (!expr) { this.say("type a game, e.g. {1|*}", true); return; }
    const seq = ++this.seq;
    this.expr = expr;
    this.writeHash();
    const fields = ["value", "outcome", "mean", "temperature", "atomic", "reduced", "birthday"];
    for (const f of fields) $("cgt-" + f).textContent = "…";
    $("cgt-value").dataset.value = "";
    $("cgt-thermograph").innerHTML = "";
    this.svg = "";
    this.say("");
    const value = this.request("cgt/value", { expr, time_limit: 5 });
    const thermo = this.request("cgt/thermograph", { expr, time_limit: 5 });
    thermo.catch(() => {});  // handled below; refused first, it must not count as unhandled
    try {
      const r = await value;
      if (seq !== this.seq) return;
      $("cgt-value").textContent = r.value;
      $("cgt-value").dataset.value = r.value;
      $("cgt-outcome").textContent = OUTCOMES[r.outcome] || r.outcome;
      $("cgt-mean").textContent = r.mean;
      $("cgt-temperature").textContent = r.temperature;
      $("cgt-atomic").textContent = r.atomic_weight == null ?
        (r.refused && r.refused.atomic_weight ? r.refused.atomic_weight : "none (not all-small)") : r.atomic_weight;
      $("cgt-reduced").textContent = r.reduced == null ? (r.refused && r.refused.reduced) || "" : r.reduced;
      $("cgt-birthday").textContent = r.birthday == null ? "" : String(r.birthday);
    } catch (e) {
      if (seq !== this.seq) return;
      for (const f of fields) $("cgt-" + f).textContent = "";
      this.say(e.message, true);
      return;
    }
    try {
      const t = await thermo;
      if (seq !== this.seq) return;
      this.svg = t.svg;
      $("cgt-thermograph").innerHTML = t.svg;
    } catch (e) {
      if (seq === this.seq) this.say("thermograph: " + e.message, true);
    }
  }
}

/* ------------------------------------------------------------------ the application */

const app = { tabs: {}, active: null };

function activate(name) {
  const tab = app.tabs[name] || app.tabs.clobber;
  app.active = tab;
  document.title = `${$("tab-" + tab.name).textContent} · clobbermania`;  // bookmarks name the game
  for (const t of Object.values(app.tabs)) {
    const on = t === tab;
    t.panel.hidden = !on;
    const button = $("tab-" + t.name);
    button.setAttribute("aria-selected", on ? "true" : "false");
    button.tabIndex = on ? 0 : -1;
  }
  return tab;
}

function loadFromHash() {
  const { tab, params } = parseFragment(location.hash);
  const t = activate(app.tabs[tab] ? tab : "clobber");
  t.load(params);
}

function main() {
  app.tabs = {
    clobber: new ClobberTab(),
    impartial: new ImpartialTab(),
    solitaire: new SolitaireTab(),
    clickomania: new ClickTab(),
    cgt: new CgtTab(),
  };
  const names = Object.keys(app.tabs);
  for (const name of names) {
    const button = $("tab-" + name);
    button.addEventListener("click", () => {
      const t = activate(name);
      if (!t.started) t.load({}); else t.writeHash();
    });
    button.addEventListener("keydown", (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      const next = names[(names.indexOf(name) + step + names.length) % names.length];
      $("tab-" + next).focus();
      $("tab-" + next).click();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (e.key === "u") { app.active.undo(); e.preventDefault(); }
    if (e.key === "r") { app.active.redo(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", loadFromHash);
  loadFromHash();
}

main();

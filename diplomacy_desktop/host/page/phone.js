// The phone's order pad: the map, my units, tap-to-order with the engine's legal options (sent
// by the host), typed orders, seal / unseal, declarations, notes, results.  No build step.
"use strict";
(function () {
  const COLOURS = { austria: "#EE6677", england: "#4477AA", france: "#66CCEE", germany: "#5F5F5F",
    italy: "#228833", russia: "#AA3377", turkey: "#CCBB44" };
  const INK = { austria: "#000", england: "#fff", france: "#000", germany: "#fff", italy: "#fff",
    russia: "#fff", turkey: "#000" };
  const SVGNS = "http://www.w3.org/2000/svg";
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  const token = m ? m[1] : null;
  const $ = (id) => document.getElementById(id);

  let state = null;        // the last state the host sent
  let options = {};        // power -> key -> [{text, order}]
  let optionsFor = "";     // the phase/stage the options are for
  let sel = null;          // {power, key, step, kind, picked: [option...]}
  let svg = null, overlay = null, anchors = {};
  let view = null, full = null;

  // -- talking to the host -------------------------------------------------------------------------
  async function api(path, body) {
    const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Token": token || "" }, cache: "no-store" };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const r = await fetch(path, init);
    let data = {};
    try { data = await r.json(); } catch (e) { data = { error: "the host answered " + r.status }; }
    if (!r.ok) throw new Error(data.error || ("error " + r.status));
    return data;
  }
  function say(text, bad) { const el = $("msg"); el.textContent = text || ""; el.className = "msg" + (bad ? " bad" : ""); }
  async function act(path, body) {
    try {
      const out = await api(path, body);
      if (out.message) say(out.message, false);
      await refresh();
      return out;
    } catch (e) { say(e.message, true); await refresh().catch(() => {}); return null; }
  }
  async function refresh() { show(await api("/api/state")); }

  // -- live updates: reconnect and catch up ---------------------------------------------------------------
  let ws = null, wait = 500;
  function connect() {
    if (ws && (ws.readyState === 0 || ws.readyState === 1)) return;
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onopen = () => { ws.send(JSON.stringify({ token: token })); wait = 500; };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") { $("link").textContent = "live"; $("link").className = ""; show(msg.state); }
      else if (msg.type === "kicked" || msg.type === "error") { ws.onclose = null; offline(msg.error); }
    };
    ws.onclose = () => { $("link").textContent = "reconnecting…"; $("link").className = "offline";
      setTimeout(connect, wait); wait = Math.min(wait * 2, 5000); };
  }
  function offline(text) { $("link").textContent = "cut off"; $("link").className = "offline"; say(text, true);
    $("game").hidden = true; }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) connect(); });
  window.addEventListener("online", connect);

  // -- the map ---------------------------------------------------------------------------------------
  async function loadMap() {
    const text = await (await fetch("/map.svg")).text();
    $("map").innerHTML = text.slice(text.indexOf("<svg"));
    svg = $("map").querySelector("svg");
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    for (const c of svg.querySelectorAll("circle.anchor")) {
      anchors[c.id.slice(7).replace("_", "/")] = [parseFloat(c.getAttribute("cx")), parseFloat(c.getAttribute("cy"))];
    }
    full = svg.viewBox.baseVal; full = [full.x, full.y, full.width, full.height];
    view = full.slice();
    overlay = document.createElementNS(SVGNS, "g"); overlay.id = "overlay"; svg.appendChild(overlay);
    setupGestures();
  }
  function setView(v) {
    const w = Math.max(120, Math.min(full[2], v[2])), h = w * full[3] / full[2];
    const x = Math.max(full[0] - w / 2, Math.min(full[0] + full[2] - w / 2, v[0] + (v[2] - w) / 2));
    const y = Math.max(full[1] - h / 2, Math.min(full[1] + full[3] - h / 2, v[1] + (v[3] - h) / 2));
    view = [x, y, w, h]; svg.setAttribute("viewBox", view.join(" "));
  }
  function zoomAt(factor, cx, cy) {
    const w = view[2] / factor, h = view[3] / factor;
    if (cx === undefined) { cx = view[0] + view[2] / 2; cy = view[1] + view[3] / 2; }
    setView([cx - (cx - view[0]) / factor, cy - (cy - view[1]) / factor, w, h]);
  }
  function svgPoint(clientX, clientY) {
    const r = svg.getBoundingClientRect(), s = Math.max(view[2] / r.width, view[3] / r.height);
    const ox = (r.width * s - view[2]) / 2, oy = (r.height * s - view[3]) / 2;
    return [view[0] + (clientX - r.left) * s - ox, view[1] + (clientY - r.top) * s - oy];
  }
  function setupGestures() {
    const pts = new Map(); let moved = false, start = null, pinch = null;
    const box = $("mapbox");
    box.addEventListener("pointerdown", (e) => { pts.set(e.pointerId, [e.clientX, e.clientY]); moved = false;
      start = [e.clientX, e.clientY, view.slice()];
      if (pts.size === 2) { const [a, b] = [...pts.values()]; pinch = [Math.hypot(a[0] - b[0], a[1] - b[1]), view.slice()]; } });
    box.addEventListener("pointermove", (e) => {
      if (!pts.has(e.pointerId)) return;
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pts.size === 2 && pinch) {
        const [a, b] = [...pts.values()], d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        view = pinch[1].slice(); const c = svgPoint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        zoomAt(d / pinch[0], c[0], c[1]); moved = true;
      } else if (pts.size === 1 && start) {
        const dx = e.clientX - start[0], dy = e.clientY - start[1];
        if (Math.abs(dx) + Math.abs(dy) > 8) moved = true;
        if (moved) { const r = svg.getBoundingClientRect(), s = Math.max(start[2][2] / r.width, start[2][3] / r.height);
          setView([start[2][0] - dx * s, start[2][1] - dy * s, start[2][2], start[2][3]]); }
      }
    });
    const up = (e) => { pts.delete(e.pointerId); if (pts.size < 2) pinch = null; };
    box.addEventListener("pointerup", up); box.addEventListener("pointercancel", up);
    box.addEventListener("click", (e) => { if (!moved) tap(e); });
    box.addEventListener("wheel", (e) => { e.preventDefault(); const c = svgPoint(e.clientX, e.clientY);
      zoomAt(e.deltaY < 0 ? 1.25 : 0.8, c[0], c[1]); }, { passive: false });
    $("zoom-in").onclick = (e) => { e.stopPropagation(); zoomAt(1.5); };
    $("zoom-out").onclick = (e) => { e.stopPropagation(); zoomAt(1 / 1.5); };
    $("zoom-all").onclick = (e) => { e.stopPropagation(); setView(full.slice()); };
  }
  // the space under a tap: an overlay mark (data-loc), else the map's own space path
  function spaceAt(e) {
    for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
      if (el.dataset && el.dataset.loc) return el.dataset.loc;
      if (el.closest && el.closest("#zoom")) return null;
      const g = el.parentNode && el.parentNode.id;
      if (el.id && (g === "provinces" || g === "seas" || g === "split-coasts")) return el.id.replace("_", "/");
    }
    return null;
  }
  const prov = (loc) => loc.split("/")[0];

  function drawUnits() {
    if (!overlay || !state) return;
    overlay.textContent = "";
    const mine = new Set(state.me.powers);
    const put = (u, dislodged) => {
      const a = anchors[u.location] || anchors[prov(u.location)]; if (!a) return;
      const [x, y] = dislodged ? [a[0] + 14, a[1] - 14] : a;
      const g = document.createElementNS(SVGNS, "g");
      const shape = document.createElementNS(SVGNS, u.type === "F" ? "rect" : "circle");
      if (u.type === "F") { shape.setAttribute("x", x - 13); shape.setAttribute("y", y - 9); shape.setAttribute("width", 26); shape.setAttribute("height", 18); shape.setAttribute("rx", 4); }
      else { shape.setAttribute("cx", x); shape.setAttribute("cy", y); shape.setAttribute("r", 12); }
      shape.setAttribute("fill", COLOURS[u.power] || "#bbb");
      shape.setAttribute("class", "unit" + (mine.has(u.power) ? " mine" : "") + (dislodged ? " dislodged" : "") +
        (sel && sel.key === prov(u.location) && !sel.build ? " selected" : ""));
      shape.dataset.loc = u.location; shape.dataset.unit = u.power + " " + u.type + " " + u.location;
      const t = document.createElementNS(SVGNS, "text"); t.setAttribute("x", x); t.setAttribute("y", y);
      t.setAttribute("class", "unit-letter"); t.setAttribute("fill", INK[u.power] || "#000"); t.textContent = u.type;
      g.appendChild(shape); g.appendChild(t); overlay.appendChild(g);
    };
    for (const u of state.units) put(u, false);
    for (const u of state.dislodged) put(u, true);
    for (const p of state.me.powers) for (const o of state.mine[p].orders) drawOrder(o.order);
    let targets = sel && sel.targets;
    if (!sel && state.stage === "orders" && state.phase.kind === "adjustment") {  // where I may build
      targets = [];
      for (const p of state.me.powers) for (const o of (options[p] || {}).build || [])
        if (o.order.location && !state.mine[p].sealed && state.mine[p].missing > 0) targets.push(prov(o.order.location));
      targets = [...new Set(targets)];
    }
    if (targets) for (const loc of targets) {
      const a = anchors[loc] || anchors[prov(loc)]; if (!a) continue;
      const c = document.createElementNS(SVGNS, "circle");
      c.setAttribute("cx", a[0] + (loc.includes("/") ? 0 : 0)); c.setAttribute("cy", a[1] + 18); c.setAttribute("r", 11);
      c.setAttribute("class", "target"); c.dataset.loc = loc; c.dataset.target = loc;
      overlay.appendChild(c);
    }
  }

  function line(from, to, dashed) {  // an arrow from one place to another, short of the far unit
    const a = anchors[from] || anchors[prov(from)], b = anchors[to] || anchors[prov(to)];
    if (!a || !b) return;
    const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1, cut = Math.min(16, len / 3);
    const l = document.createElementNS(SVGNS, "line");
    l.setAttribute("x1", a[0] + dx / len * cut); l.setAttribute("y1", a[1] + dy / len * cut);
    l.setAttribute("x2", b[0] - dx / len * cut); l.setAttribute("y2", b[1] - dy / len * cut);
    l.setAttribute("class", "order-line"); l.setAttribute("marker-end", "url(#arrow)");
    if (dashed) l.setAttribute("stroke-dasharray", "6 4");
    overlay.appendChild(l);
  }
  function drawOrder(o) {
    if (!svg.querySelector("#arrow")) {
      const defs = document.createElementNS(SVGNS, "defs");
      defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1a1a1a"/></marker>';
      svg.insertBefore(defs, svg.firstChild);
    }
    if (o.kind === "move" || o.kind === "retreat") line(o.location, o.destination, false);
    else if (o.kind === "support_move" || o.kind === "convoy") { line(o.location, o.target, true); line(o.target, o.destination, true); }
    else if (o.kind === "support_hold") line(o.location, o.target, true);
    else if (o.kind === "build") { const a = anchors[o.location] || anchors[prov(o.location)]; if (!a) return;
      const c = document.createElementNS(SVGNS, "circle"); c.setAttribute("cx", a[0]); c.setAttribute("cy", a[1]);
      c.setAttribute("r", 16); c.setAttribute("class", "order-line"); c.setAttribute("stroke-dasharray", "4 3"); overlay.appendChild(c); }
  }

  // -- tapping orders ------------------------------------------------------------------------------------
  const KIND_WORD = { hold: "Hold", move: "Move", support_hold: "Support", support_move: "Support", convoy: "Convoy",
    retreat: "Retreat", disband: "Disband", build: "Build", remove: "Remove", waive: "Waive" };
  function optionsAt(loc) {
    for (const p of state.me.powers) {
      const mine = options[p] || {};
      if (mine[prov(loc)]) return { power: p, key: prov(loc), list: mine[prov(loc)] };
      if (mine.build) { const list = mine.build.filter((o) => o.order.location && prov(o.order.location) === prov(loc));
        if (list.length) return { power: p, key: "build", list: list, build: true }; }
    }
    return null;
  }
  function prompt(text) { $("prompt").textContent = text || ""; }
  function choices(list) {
    const box = $("choices"); box.textContent = "";
    for (const [label, fn, cls] of list) { const b = document.createElement("button"); b.type = "button";
      b.textContent = label; if (cls) b.className = cls; b.onclick = fn; box.appendChild(b); }
  }
  function cancel() { sel = null; prompt(""); choices([]); drawUnits(); }
  function give(power, option) { const s = sel; cancel();
    return act("/api/order", { power: power, phase: state.phase.short, order: option.order }).then(() => s); }
  function pick(list, then) {  // one option: give it; several: ask which (coasts, via convoy)
    if (list.length === 1) return then(list[0]);
    prompt("Which one?");
    choices(list.map((o) => [o.text, () => then(o)]).concat([["Cancel", cancel]]));
  }
  function startUnit(found) {
    sel = { power: found.power, key: found.key, list: found.list, build: !!found.build, step: "kind" };
    drawUnits();
    const kinds = [];
    for (const o of found.list) { const w = KIND_WORD[o.order.kind]; if (!kinds.includes(w)) kinds.push(w); }
    prompt(found.build ? "Build what?" : "Order for " + found.list[0].text.split(" ").slice(0, 2).join(" ") + ":");
    const buttons = kinds.map((w) => [w, () => chooseKind(w)]);
    buttons.push(["All orders…", () => { prompt("All legal orders:");
      choices(sel.list.map((o) => [o.text, () => give(sel.power, o)]).concat([["Cancel", cancel]])); }]);
    buttons.push(["Cancel", cancel]);
    choices(buttons);
  }
  function chooseKind(word) {
    const list = sel.list.filter((o) => KIND_WORD[o.order.kind] === word);
    if (word === "Hold" || word === "Disband" || word === "Remove" || word === "Waive" || word === "Build") return pick(list, (o) => give(sel.power, o));
    sel.list = list; sel.kind = word;
    if (word === "Move" || word === "Retreat") { sel.step = "dest"; sel.targets = [...new Set(list.map((o) => o.order.destination))];
      prompt("Tap where it goes."); }
    else { sel.step = "target"; sel.targets = [...new Set(list.map((o) => o.order.target))];
      prompt(word === "Convoy" ? "Tap the army it convoys." : "Tap the unit it supports."); }
    choices([["Cancel", cancel]]); drawUnits(); fitTargets(sel.targets);
  }
  function tap(e) {
    if (!state || state.stage !== "orders") return;
    const loc = spaceAt(e); if (!loc) return;
    const p = prov(loc);
    if (!sel) { const found = optionsAt(loc); if (found) startUnit(found); return; }
    if (sel.step === "dest") { const list = sel.list.filter((o) => prov(o.order.destination) === p);
      if (!list.length) { say("It cannot go there.", true); return; } return pick(list, (o) => give(sel.power, o)); }
    if (sel.step === "target") {
      const list = sel.list.filter((o) => prov(o.order.target) === p);
      if (!list.length) { say("Not a unit it can " + sel.kind.toLowerCase() + ".", true); return; }
      sel.list = list; sel.step = "dest2";
      sel.targets = [...new Set(list.map((o) => o.order.destination || o.order.target))];
      prompt(sel.kind === "Convoy" ? "Tap where the army goes." : "Tap where it is supported to (the unit itself: to hold).");
      drawUnits(); fitTargets(sel.targets); return;
    }
    if (sel.step === "dest2") {
      const list = sel.list.filter((o) => prov(o.order.destination || o.order.target) === p);
      if (!list.length) { say("Not possible there.", true); return; } return pick(list, (o) => give(sel.power, o));
    }
  }

  // -- showing the state ---------------------------------------------------------------------------------
  function name(p) { const x = state.powers.find((q) => q.id === p); return x ? x.name : p; }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  let clockAt = 0;
  function tick() {
    const c = state && state.clock, el = $("clock");
    if (!c) { el.hidden = true; return; }
    let left = c.remaining - (c.running ? (Date.now() - clockAt) / 1000 : 0);
    left = Math.max(0, left);
    const m = Math.floor(left / 60), sec = Math.floor(left % 60);
    el.hidden = false;
    el.textContent = c.title + " " + m + ":" + String(sec).padStart(2, "0") + (c.running ? "" : left > 0 ? " (paused)" : " — time!");
    el.className = left <= 0 ? "expired" : "";
  }
  setInterval(tick, 1000);
  function show(s) {
    const newPhase = !state || state.phase.short !== s.phase.short || state.stage !== s.stage;
    state = s; clockAt = Date.now(); tick();
    $("join").hidden = true; $("game").hidden = false;
    $("phase").textContent = s.over ? "Game over" : s.phase.label;
    $("who").textContent = (s.me.player ? s.me.player + ": " : "") + s.me.powers.map(name).join(", ");
    const strip = $("strip"); strip.textContent = "";
    const done = s.stage === "declarations" ? s.declared : s.sealed;
    for (const p of s.owing) strip.appendChild(el("span", name(p) + (done.includes(p) ? " ✓" : " …"), "chip " + (done.includes(p) ? "sealed" : "waiting")));
    if (newPhase) { cancel(); loadOptions(); }
    showOrders(); showDeclarations(); showResults(); showNotes(); drawUnits(); frameMine();
  }
  async function loadOptions() {
    const key = state.phase.short + state.stage;
    if (optionsFor === key) return;
    try { options = await api("/api/options"); optionsFor = key; drawUnits(); } catch (e) { say(e.message, true); }
  }
  function showOrders() {
    const box = $("order-list"); box.textContent = "";
    const seals = $("seals");
    const sealsChanged = changed(seals, [state.phase.short, state.stage, state.owing,
      state.me.powers.map((p) => [state.mine[p].sealed, state.mine[p].pin, state.mine[p].seal_code])]);
    if (sealsChanged) seals.textContent = "";
    $("typed").hidden = state.stage !== "orders";
    for (const p of state.me.powers) {
      const mine = state.mine[p];
      if (state.me.powers.length > 1) box.appendChild(el("div", name(p), "power-name"));
      if (mine.phones_joined) box.appendChild(el("div", "⚠ " + mine.phones_joined + " phone(s) joined " + name(p) +
        " with its PIN this game: if that was not you, tell the host", "missing"));
      for (const o of mine.orders) {
        const row = el("div", undefined, "order"); row.dataset.order = o.text;
        const t = el("span", o.text); if (!o.legal) t.appendChild(el("div", "illegal: " + o.problem + " (it will hold)", "illegal"));
        row.appendChild(t);
        if (!mine.sealed && state.stage === "orders") { const b = el("button", "✕"); b.type = "button"; b.setAttribute("aria-label", "clear " + o.text);
          b.onclick = () => act("/api/clear", { power: p, phase: state.phase.short, key: o.key }); row.appendChild(b); }
        box.appendChild(row);
      }
      for (const u of mine.unordered) box.appendChild(el("div", "⚠ " + unitLabel(u) + ": no order yet (" +
        (state.phase.kind === "retreat" ? "it will be disbanded" : state.phase.kind === "adjustment" ? "removed by the rules" : "it will hold") + ")", "missing"));
      if (state.phase.kind === "adjustment" && mine.missing > 0) box.appendChild(el("div", "⚠ " + mine.missing +
        (mine.adjustment > 0 ? " build(s) not chosen: tap a home centre" : " removal(s) not chosen: tap a unit"), "missing"));
      if (!sealsChanged || state.stage !== "orders" || !state.owing.includes(p)) continue;
      const row = el("div", undefined, "seal-row");
      let pin = null;
      if (mine.pin) { pin = el("input"); pin.placeholder = "PIN"; pin.inputMode = "numeric"; pin.maxLength = 8; pin.autocomplete = "off"; row.appendChild(pin); }
      const b = el("button", mine.sealed ? "Unseal " + name(p) : "Seal " + name(p), mine.sealed ? "" : "primary");
      b.type = "button"; b.id = "seal-" + p;
      b.onclick = () => act(mine.sealed ? "/api/unseal" : "/api/seal", { power: p, phase: state.phase.short, pin: pin ? pin.value : null });
      row.appendChild(b);
      if (mine.sealed) row.appendChild(el("span", (mine.seal_code ? "sealed, code \u201c" + mine.seal_code +
        "\u201d (check it at the reveal)" : "sealed") + ": waiting for the others", "seal-code"));
      seals.appendChild(row);
    }
  }
  // rebuild a part of the page only when what it shows has changed, so that a push from the host
  // (another power sealed, ...) never wipes what the player is choosing or typing there
  function changed(el, what) {
    const key = JSON.stringify(what);
    if (el.dataset.key === key) return false;
    el.dataset.key = key; return true;
  }
  function showDeclarations() {
    const sec = $("declare"); sec.hidden = state.stage !== "declarations" && !state.relations;
    const body = $("declare-body");
    if (!changed(body, [state.phase.short, state.stage, state.relations, state.owing,
      state.me.powers.map((p) => state.mine[p].declarations), state.me.powers.map((p) => state.mine[p].declared)])) return;
    body.textContent = "";
    if (state.relations) body.appendChild(el("p", "Now: " + state.relations.filter((r) => r.relation !== "neutral")
      .map((r) => name(r.powers[0]) + " – " + name(r.powers[1]) + ": " + r.relation).join("; ") || "Now: everyone neutral"));
    if (state.stage !== "declarations") return;
    for (const p of state.me.powers) {
      if (!state.owing.includes(p)) continue;
      const mine = state.mine[p]; const form = el("div"); form.appendChild(el("div", name(p) + " declares:", "power-name"));
      const selects = {};
      for (const q of state.powers) { if (q.id === p) continue;
        const l = el("label", q.name + " "); const s = el("select"); s.name = q.id;
        for (const r of ["alliance", "neutral", "war"]) { const o = el("option", r); o.value = r; s.appendChild(o); }
        s.value = mine.declarations[q.id] || current(p, q.id); selects[q.id] = s; l.appendChild(s); form.appendChild(l); }
      const b = el("button", mine.declared ? "Declare again" : "Declare", "primary"); b.type = "button"; b.id = "declare-" + p;
      b.onclick = () => { const d = {}; for (const k in selects) d[k] = selects[k].value;
        act("/api/declare", { power: p, phase: state.phase.short, declarations: d }); };
      form.appendChild(b); if (mine.declared) form.appendChild(el("span", " declared (secret until all have)"));
      body.appendChild(form);
    }
  }
  function unitLabel(p) {
    const u = state.dislodged.find((x) => prov(x.location) === p) || state.units.find((x) => prov(x.location) === p);
    return u ? u.type + " " + u.label : p;
  }
  let framed = false;
  function fitTargets(locs) {  // the places to tap are all in view (zooming out only if needed)
    const pts = locs.map((l) => anchors[l] || anchors[prov(l)]).filter(Boolean);
    if (!pts.length) return;
    const pad = 40, xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs, view[0] + pad) - pad, x1 = Math.max(...xs, view[0] + view[2] - pad) + pad;
    const y0 = Math.min(...ys, view[1] + pad) - pad, y1 = Math.max(...ys, view[1] + view[3] - pad) + pad;
    if (x0 >= view[0] && x1 <= view[0] + view[2] && y0 >= view[1] && y1 <= view[1] + view[3]) return;
    const w = Math.max(x1 - x0, (y1 - y0) * full[2] / full[3]);
    setView([(x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - w * full[3] / full[2] / 2, w, w * full[3] / full[2]]);
  }
  function frameMine() {  // the first view: my units, not the whole of Europe
    if (framed || !svg || !state) return;
    framed = true;
    const mine = new Set(state.me.powers);
    const pts = state.units.filter((u) => mine.has(u.power)).map((u) => anchors[u.location] || anchors[prov(u.location)]).filter(Boolean);
    if (!pts.length) return;
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const w = Math.max(450, Math.max(...xs) - Math.min(...xs) + 300);
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    const h = w * full[3] / full[2];
    setView([cx - w / 2, cy - h / 2, w, h]);
  }
  function current(a, b) { const r = (state.relations || []).find((x) => x.powers.includes(a) && x.powers.includes(b)); return r ? r.relation : "neutral"; }
  function showPieces(r) {  // the piece pusher's list, after the reveal (table/pieces.py)
    const steps = (r && r.pieces && r.pieces.steps) || []; $("pieces").hidden = !steps.length;
    $("pieces-title").textContent = "Move the pieces: " + (r ? r.label : "");
    const list = $("piece-list"); list.textContent = "";
    for (const st of steps) list.appendChild(el("li", st.text, "piece " + st.action));
  }
  function showResults() {
    $("mapbox").hidden = !!state.map_hidden;
    const r = state.results; showPieces(r); $("results").hidden = !r; if (!r) return;
    $("results-title").textContent = "Results: " + r.label;
    const box = $("result-list"); box.textContent = "";
    const codes = state.seal_codes && state.seal_codes.phase === r.phase ? state.seal_codes.codes : {};
    if (Object.keys(codes).length) box.appendChild(el("div", "Seal codes: " + state.powers.filter((q) => codes[q.id])
      .map((q) => q.name + " \u201c" + codes[q.id] + "\u201d").join("; "), "seal-codes"));
    const mine = new Set(state.me.powers);
    const items = r.items.slice().sort((a, b) => (mine.has(b.power) - mine.has(a.power)) || a.power.localeCompare(b.power));
    for (const it of items) { const d = el("div", undefined, "result");
      const head = el("div"); head.appendChild(el("span", name(it.power) + (codes[it.power] ? " [" + codes[it.power] + "]" : "") +
        ": " + it.order + " "));
      head.appendChild(el("span", it.verdict, it.success ? "" : (it.verdict === "fails" ? "fails" : "illegal-r"))); d.appendChild(head);
      const det = el("details"); det.appendChild(el("summary", it.reason)); det.appendChild(el("div", it.explanation)); d.appendChild(det);
      box.appendChild(d); }
  }
  function showNotes() {
    $("notes").hidden = !state.notes_allowed; if (!state.notes_allowed) return;
    const list = $("note-list"); list.textContent = "";
    for (const n of state.notes) list.appendChild(el("div", n.phase + " — " + name(n.from) + " to " + n.to.map(name).join(", ") + ": " + n.text, "note"));
    const to = $("note-to");
    if (!to.childElementCount) for (const q of state.powers) { if (state.me.powers.includes(q.id)) continue;
      const l = el("label"); const c = el("input"); c.type = "checkbox"; c.value = q.id; c.name = "to"; l.appendChild(c); l.appendChild(document.createTextNode(" " + q.name)); to.appendChild(l); }
  }
  $("note-form").onsubmit = async (e) => { e.preventDefault();
    const to = [...document.querySelectorAll("#note-to input:checked")].map((c) => c.value);
    const out = await act("/api/note", { power: state.me.powers[0], to: to, text: $("note-text").value });
    if (out) { $("note-text").value = ""; for (const c of document.querySelectorAll("#note-to input")) c.checked = false; } };
  $("typed").onsubmit = async (e) => { e.preventDefault(); const text = $("typed-text").value; if (!text.trim()) return;
    const out = await act("/api/order", { power: state.me.powers[0], phase: state.phase.short, text: text });
    if (out) $("typed-text").value = ""; };

  // -- joining with a PIN -----------------------------------------------------------------------------------
  async function joinPage() {
    $("join").hidden = false; $("link").textContent = "";
    const s = await (await fetch("/api/public")).json();
    for (const p of s.powers) { const o = el("option", p.name); o.value = p.id; $("join-power").appendChild(o); }
    $("join-go").onclick = async () => {
      const r = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ power: $("join-power").value, pin: $("join-pin").value }) });
      const d = await r.json(); if (r.ok) location.replace(d.url); else $("join-msg").textContent = d.error;
    };
  }

  if (!token) { joinPage(); return; }
  loadMap().then(() => { drawUnits(); connect(); refresh().catch((e) => say(e.message, true)); });
})();

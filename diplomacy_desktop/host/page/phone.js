// The phone's order pad: the map, my units, tap-to-order with the engine's legal options (sent
// by the host), typed orders, seal / unseal, declarations, notes, every phase's results drawn on
// the map.  No build step.
//
// A finger is FINGER css px across: the first view of the map (and the view of a unit's targets)
// is at a scale where the marks to tap are at least that far apart, and a tap goes to the nearest
// mark within REACH; a tap as near to two marks asks which (and magnifies them).  Everything the
// page shows belongs to the phase the host says the game is in: a change of phase clears it.
"use strict";
(function () {
  const COLOURS = { austria: "#EE6677", england: "#4477AA", france: "#66CCEE", germany: "#5F5F5F",
    italy: "#228833", russia: "#AA3377", turkey: "#CCBB44" };
  const INK = { austria: "#000", england: "#fff", france: "#000", germany: "#fff", italy: "#fff",
    russia: "#fff", turkey: "#000" };
  const SVGNS = "http://www.w3.org/2000/svg";
  const FINGER = 40;      // css px: a fingertip's contact
  const REACH = 30;       // css px: a tap counts for a mark this near
  const LABEL_REACH = 20; // css px: a tap this near a province's name means that province
  const AMBIGUOUS = 10;   // css px: two marks whose distances from a tap differ by less: ask
  const UNIT_R = 12;      // map units: a unit's radius (the window's design size)
  const MIN_SHAFT = 12;   // map units: a move arrow's shaft (without its head) is never shorter (the window's)
  const K_EASY = 0.9;     // css px per map unit: the first view is at least this close when it fits
  const COASTS = { nc: "north coast", sc: "south coast", ec: "east coast", wc: "west coast" };
  const KIND_WORD = { hold: "Hold", move: "Move", support_hold: "Support", support_move: "Support", convoy: "Convoy",
    retreat: "Retreat", disband: "Disband", build: "Build", remove: "Remove", waive: "Waive" };
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  const token = m ? m[1] : null;
  const $ = (id) => document.getElementById(id);

  let state = null;        // the last state the host sent
  let options = {};        // power -> key -> [{text, order}]
  let optionsFor = "";     // the phase/stage the options are for
  let sel = null;          // {power, key, step, kind, list, targets, unit}
  let asking = null;       // the marks a tap was ambiguous between
  let askBack = null;      // the view before a tap on my units asked which
  let svg = null, overlay = null, anchors = {}, full = null;
  let cam = null;          // {cx, cy, k}: the map point at the box's centre, css px per map unit
  let names = { spaces: {}, powers: {} };
  let mode = "board";      // or "results": the map shows an adjudicated phase
  let pictures = {}, shownIndex = null, picture = null, picturesFor = "";
  let groupList = [], groupOn = 0, framedFor = "";
  let msgKey = "";         // the phase/stage the message belongs to
  let linkUp = false;

  // -- talking to the host -------------------------------------------------------------------------
  class NetworkError extends Error {}
  async function api(path, body) {
    const init = { method: body === undefined ? "GET" : "POST", headers: { "X-Token": token || "" }, cache: "no-store" };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    let r;
    try { r = await fetch(path, init); } catch (e) { throw new NetworkError("the host cannot be reached"); }
    let data = {};
    try { data = await r.json(); } catch (e) { data = { error: "the host answered " + r.status }; }
    if (!r.ok) { const err = new Error(data.error || ("error " + r.status)); err.status = r.status; throw err; }
    return data;
  }
  const phaseKey = (s) => s ? s.phase.short + "/" + s.stage : "";
  function say(text, bad, actions) {
    const e = $("msg"); e.textContent = text || ""; e.className = "msg" + (bad ? " bad" : "");
    msgKey = phaseKey(state);
    const box = $("msg-actions"); box.textContent = "";
    for (const [label, fn] of actions || []) { const b = el("button", label); b.type = "button";
      b.onclick = () => { box.textContent = ""; fn(); }; box.appendChild(b); }
  }
  function linkState(up, text) {
    linkUp = up;
    $("link").textContent = up ? "live" : text; $("link").className = up ? "" : "offline";
  }
  // one door for every change: a network failure is queued (orders) or refused in words (the rest)
  async function act(path, body, how) {
    how = how || {};
    try {
      const out = await api(path, body);
      if (how.done) how.done(out); else if (out.message) say(out.message, false);
      refresh().catch(() => {});
      return out;
    } catch (e) {
      if (e instanceof NetworkError) {
        linkState(false, "host unreachable");
        if (how.queue) { enqueue(path, body, how.queue);
          say("Not sent yet: the host cannot be reached. “" + how.queue + "” will be sent when it is back.", false); }
        else say((how.refuse || "Not done") + ": the host cannot be reached. Try again when the link says live.", true);
        showOrders(); drawMap();
        return null;
      }
      say(e.message, true); refresh().catch(() => {}); return null;
    }
  }
  async function refresh() { show(await api("/api/state")); }

  // -- orders tapped while the host is down: kept, and sent when it is back ------------------------------
  const OUTBOX = "outbox:" + token;
  function outbox() { try { return JSON.parse(sessionStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; } }
  function setOutbox(list) { try { sessionStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ } }
  function enqueue(path, body, label) {
    const list = outbox().filter((x) => !(x.body.power === body.power && x.unit && x.unit === unitKey(body)));
    list.push({ path: path, body: body, label: label, unit: unitKey(body) }); setOutbox(list);
  }
  function unitKey(body) { return body.key || (body.order && body.order.location ? prov(body.order.location) : null); }
  let flushing = false;
  async function flushOutbox() {
    if (flushing) return; flushing = true;
    try {
      let list = outbox();
      while (list.length) {
        const x = list[0];
        try { const out = await api(x.path, x.body);
          say("Sent now that the host is back: " + (out.order || x.label) + (out.kept_illegal ? " (kept, but illegal)" : ""), false); }
        catch (e) { if (e instanceof NetworkError) return;
          say("Not given: “" + x.label + "”: " + e.message, true); }
        list = outbox().slice(1); setOutbox(list);
      }
    } finally { flushing = false; }
    refresh().catch(() => {});
  }

  // -- live updates: reconnect and catch up ---------------------------------------------------------------
  let ws = null, wait = 200;
  function connect() {
    if (ws && (ws.readyState === 0 || ws.readyState === 1)) return;
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onopen = () => { ws.send(JSON.stringify({ token: token })); wait = 200; };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        const was = linkUp; linkState(true);
        if (!was && /cannot be reached/.test($("msg").textContent)) say("");
        show(msg.state);
        if (outbox().length) flushOutbox();
      } else if (msg.type === "kicked" || msg.type === "error") { ws.onclose = null; offline(msg.error); }
    };
    // the badge must say "live" within a second of the host being back: retry every 400 ms (a
    // refused connection costs the host nothing), never backing off to several seconds
    ws.onclose = () => { linkState(false, "reconnecting…"); setTimeout(connect, wait); wait = Math.min(wait + 100, 400); };
  }
  function offline(text) { linkState(false, "cut off"); say(text, true); $("game").hidden = true; }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) connect(); });
  window.addEventListener("online", connect);
  window.addEventListener("offline", () => linkState(false, "no network"));

  // -- words ---------------------------------------------------------------------------------------
  const prov = (loc) => loc.split("/")[0];
  function place(loc) {
    if (!loc) return "";
    const [p, c] = loc.split("/");
    const n = names.spaces[p] || p;
    return c ? n + " (" + (COASTS[c] || c) + ")" : n;
  }
  const kindWord = (k) => k === "F" ? "F" : "A";
  function describe(o) {  // an option (order fields) in words, with full names
    const u = kindWord(o.unit_kind) + " " + place(o.location);
    const tu = (o.target_kind ? o.target_kind + " " : "") + place(o.target);
    switch (o.kind) {
      case "hold": return u + " holds";
      case "move": return u + " → " + place(o.destination) + (o.via_convoy ? " by convoy" : "");
      case "support_hold": return u + " supports " + tu + " to hold";
      case "support_move": return u + " supports " + tu + " → " + place(o.destination);
      case "convoy": return u + " convoys " + tu + " → " + place(o.destination);
      case "retreat": return u + " retreats → " + place(o.destination);
      case "disband": return u + " disbands";
      case "build": return (o.unit_kind === "F" ? "Build a fleet in " : "Build an army in ") + place(o.location);
      case "remove": return "Remove " + u;
      case "waive": return "Waive a build";
      default: return o.kind;
    }
  }
  function name(p) { return names.powers[p] || ((state && state.powers.find((q) => q.id === p)) || {}).name || p; }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

  // -- the map and its camera --------------------------------------------------------------------------
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
    overlay = document.createElementNS(SVGNS, "g"); overlay.id = "overlay"; svg.appendChild(overlay);
    // the names stay readable above units and marks (they take no taps)
    for (const id of ["label-halos", "labels"]) { const g = svg.querySelector("#" + id); if (g) svg.appendChild(g); }
    clearNames();
    cam = { cx: full[0] + full[2] / 2, cy: full[1] + full[3] / 2, k: 0 };
    setCam(cam.cx, cam.cy, 0);
    setupGestures();
    try { names = await api("/api/board"); } catch (e) { /* the short names do */ }
  }
  // no province's name over a unit (issue 34, finding 5: "Apu" was drawn over the Naples unit, and
  // several names touched their own unit's outline): a name whose glyphs meet the place a unit takes
  // on any space (its shape and outline) moves to the nearest spot inside its own
  // province that is clear of every such place, of the other names and of the centres' markers;
  // so does a name too near another place's mark (finding 10: a tap 20 px off "ENGLISH CHANNEL"
  // landed on Picardy's mark)
  function clearNames() {
    const texts = [...svg.querySelectorAll("#labels text[id^='label_']")];
    if (!texts.length) return;
    const ctx = document.createElement("canvas").getContext("2d"); ctx.textAlign = "center";
    const family = svg.querySelector("#labels").getAttribute("font-family") || "sans-serif";
    const ink = (t, x, y) => {  // the box of the name's glyphs, drawn with its baseline's middle at (x, y)
      ctx.font = (t.getAttribute("font-style") || "normal") + " " + (t.getAttribute("font-weight") || "normal") + " " +
        t.getAttribute("font-size") + "px " + family;
      const m = ctx.measureText(t.textContent);
      return [x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent, x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent];
    };
    const meets = (a, b, gap) => a[0] < b[2] + gap && b[0] < a[2] + gap && a[1] < b[3] + gap && b[1] < a[3] + gap;
    const PAD = 2;  // half a unit's outline (the player's own: 3.5), and a hair
    const units = Object.values(anchors).map((a) => [a[0] - 13 - PAD, a[1] - UNIT_R - PAD, a[0] + 13 + PAD, a[1] + UNIT_R + PAD]);
    const centres = [...svg.querySelectorAll("circle.supply-centre")].map((c) => { const x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
      return [x - 5.5, y - 5.5, x + 5.5, y + 5.5]; });
    const halos = new Map([...svg.querySelectorAll("#label-halos text")].map((h) => [h.getAttribute("x") + "," + h.getAttribute("y") + "," + h.textContent, h]));
    const at = texts.map((t) => [parseFloat(t.getAttribute("x")), parseFloat(t.getAttribute("y"))]);
    const haloOf = texts.map((t) => halos.get(t.getAttribute("x") + "," + t.getAttribute("y") + "," + t.textContent) || null);
    const boxes = texts.map((t, i) => ink(t, at[i][0], at[i][1]));
    const others = Object.entries(anchors).map(([loc, a]) => ({ p: prov(loc), x: a[0], y: a[1] }));
    const FAR = 32;  // map units: 29 css px (a tap 19 px off a name, and a mark's own 10 px) at the phone's widest view
    const tries = [];
    for (let dy = -60; dy <= 60; dy += 1) for (let dx = -72; dx <= 72; dx += 2) tries.push([dx, dy]);
    tries.sort((u, v) => Math.hypot(u[0], u[1]) - Math.hypot(v[0], v[1]));
    texts.forEach((t, i) => {
      const p = t.id.slice(6), own = svg.querySelector("#provinces #" + p + ", #seas #" + p);
      const clear = (b) => !units.some((u) => meets(b, u, 0)) && !centres.some((c) => meets(b, c, 0)) &&
        !boxes.some((o, j) => j !== i && meets(b, o, 1));
      // away from the other places' marks too (a tap by the name must not land on one): a name
      // nearer than FAR to one, or moved off a unit, goes to the nearest spot FAR from them, else
      // the farthest there is
      const far = (b) => Math.min(...others.filter((o) => o.p !== p).map((o) =>
        Math.hypot(Math.max(b[0] - o.x, 0, o.x - b[2]), Math.max(b[1] - o.y, 0, o.y - b[3]))));
      if ((clear(boxes[i]) && far(boxes[i]) >= FAR) || !own || !own.getAttribute("d")) return;
      const shape = new Path2D(own.getAttribute("d"));  // (the page may be hidden yet: no layout to ask)
      let best = null;
      for (const [dx, dy] of tries) {
        const x = at[i][0] + dx, y = at[i][1] + dy, b = ink(t, x, y);
        if (!clear(b)) continue;
        // the name's middle stays in its province (a nudge of a few units is fine: some names stand over a coast)
        if (Math.hypot(dx, dy) > 6 && !ctx.isPointInPath(shape, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, "evenodd")) continue;
        const f = far(b);
        if (!best || f > best.f) best = { x: x, y: y, b: b, f: f };
        if (f >= FAR) break;
      }
      if (!best) return;
      const h = haloOf[i];
      for (const e of h ? [t, h] : [t]) { e.setAttribute("x", best.x); e.setAttribute("y", best.y); }
      at[i] = [best.x, best.y]; boxes[i] = best.b;
    });
    // what spaceNames needs to move a name again, in a view: where it stands, its glyphs' box
    // relative to that spot, its province's shape, and what it must stay clear of
    nameSpots = { ctx: ctx, units: units, centres: centres, meets: meets, list: texts.map((t, i) => {
      const p = t.id.slice(6), own = svg.querySelector("#provinces #" + p + ", #seas #" + p);
      return { t: t, p: p, h: haloOf[i],
        home: at[i], at: at[i], ink: [boxes[i][0] - at[i][0], boxes[i][1] - at[i][1], boxes[i][2] - at[i][0], boxes[i][3] - at[i][1]],
        hit: null, shape: own && own.getAttribute("d") ? new Path2D(own.getAttribute("d")) : null };
    }) };
  }
  let nameSpots = null, spacedFor = "";
  // a tap on or within LABEL_REACH px of a marked place's name means that place, and a tap within
  // AMBIGUOUS px of a mark means that mark: in a view zoomed out far enough the two overlapped (issue
  // 34, finding 10: at 0.49 px a map unit a tap 20 px off "NTH" landed 9.7 px from Edinburgh's mark,
  // and Edinburgh it was).  So, in the view shown, the name of each marked place stands at least
  // LABEL_REACH + AMBIGUOUS px from every other place's mark, and wholly on screen if its mark is: a
  // name that is not moves, for this view, to the nearest spot in its own province that is (clear of
  // units, centres' markers and the other names, as clearNames keeps them), else to the best there
  // is (the marks' distance first); every other name stands where clearNames put it
  function spaceNames(ms) {
    if (!nameSpots || !cam || !cam.k) return;
    const key = [cam.cx, cam.cy, cam.k].map((v) => v.toFixed(3)).join(",") + " " + ms.map((mk) => mk.loc + "@" + mk.pt.join(",")).join(" ");
    if (key === spacedFor) return;
    spacedFor = key;
    const { ctx, units, centres, meets, list } = nameSpots;
    const moveTo = (n, xy) => { if (n.at[0] === xy[0] && n.at[1] === xy[1]) return; n.at = xy;
      for (const e of n.h ? [n.t, n.h] : [n.t]) { e.setAttribute("x", xy[0]); e.setAttribute("y", xy[1]); } };
    for (const n of list) moveTo(n, n.home);
    const marked = new Set(ms.map((mk) => prov(mk.loc)));
    if (!marked.size) return;
    const need = (LABEL_REACH + AMBIGUOUS + 1) / cam.k;
    const shift = (b, xy) => [b[0] + xy[0], b[1] + xy[1], b[2] + xy[0], b[3] + xy[1]];
    const r = box(), hw = r.width / cam.k / 2, hh = r.height / cam.k / 2, edge = 3 / cam.k;
    const view = [cam.cx - hw + edge, cam.cy - hh + edge, cam.cx + hw - edge, cam.cy + hh - edge];
    const inView = (b) => b[0] >= view[0] && b[2] <= view[2] && b[1] >= view[1] && b[3] <= view[3];
    for (const n of list) {
      if (!marked.has(n.p) || !n.shape) continue;
      if (!n.hit) {  // the box a tap is measured from (the text's whole line box, as the page measures it)
        const b = n.t.getBBox(); if (!b.width) continue;
        n.hit = [b.x - n.at[0], b.y - n.at[1], b.x + b.width - n.at[0], b.y + b.height - n.at[1]];
      }
      const pts = ms.filter((mk) => prov(mk.loc) !== n.p).map((mk) => mk.pt);
      // and the whole name on screen where its place's mark is ("Sevastop" was cut off at the map's edge)
      const shown = ms.some((mk) => prov(mk.loc) === n.p && inView(mk.pt.concat(mk.pt)));
      // [as far as needed from the marks, whole on screen] at a spot (no arrays made: tens of
      // thousands of spots a frame while a pinch zooms out)
      const h = n.hit;
      const farAt = (x, y) => { let m = need;
        for (const q of pts) { const dx = Math.max(h[0] + x - q[0], 0, q[0] - h[2] - x), dy = Math.max(h[1] + y - q[1], 0, q[1] - h[3] - y);
          const d = Math.sqrt(dx * dx + dy * dy); if (d < m) m = d; }
        return m; };
      const wholeAt = (x, y) => !shown || (h[0] + x >= view[0] && h[2] + x <= view[2] && h[1] + y >= view[1] && h[3] + y <= view[3]) ? 1 : 0;
      let best = { xy: n.home, f: farAt(n.home[0], n.home[1]), w: wholeAt(n.home[0], n.home[1]) };
      if (best.f >= need && best.w) continue;
      const boxes = list.filter((o) => o !== n).map((o) => shift(o.ink, o.at));
      // as far as the reach and a mark's own 10 px (and half as far again), or to its mark on screen
      const own = ms.find((mk) => prov(mk.loc) === n.p).pt;
      const reach = Math.max(need * 1.5 + 30, shown && !best.w ? Math.hypot(own[0] - n.home[0], own[1] - n.home[1]) + 60 : 0);
      const r2 = Math.min(reach, 300) ** 2;
      for (const [dx, dy, d2] of nameTries()) {
        if (d2 > r2) break;
        const x = n.home[0] + dx, y = n.home[1] + dy, f = farAt(x, y);
        if (f < best.f) continue;
        const w = wholeAt(x, y);
        if (f === best.f && w <= best.w) continue;
        const b = shift(n.ink, [x, y]);
        if (units.some((u) => meets(b, u, 0)) || centres.some((c) => meets(b, c, 0)) || boxes.some((o) => meets(b, o, 1))) continue;
        if (!ctx.isPointInPath(n.shape, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, "evenodd")) continue;
        best = { xy: [x, y], f: f, w: w };
        if (f >= need && w) break;
      }
      moveTo(n, best.xy);
    }
  }
  // the spots a name may move to, nearest first: every 2 map units, as far as 300 (made once)
  let triesMemo = null;
  function nameTries() {
    if (triesMemo) return triesMemo;
    const out = [];
    for (let dy = -300; dy <= 300; dy += 2) for (let dx = -300; dx <= 300; dx += 2) if (dx * dx + dy * dy <= 90000) out.push([dx, dy, dx * dx + dy * dy]);
    out.sort((u, v) => u[2] - v[2]);
    return (triesMemo = out);
  }
  function box() { return $("map").getBoundingClientRect(); }
  function kMin() { const r = box(); return Math.min(r.width / full[2], r.height / full[3]); }
  function clampC(c, half, lo, size) { return 2 * half >= size ? lo + size / 2 : Math.max(lo + half, Math.min(lo + size - half, c)); }
  function setCam(cx, cy, k) {
    const r = box();
    if (!r.width || !r.height) { cam = { cx: cx, cy: cy, k: 0 }; return; }  // not shown yet
    k = Math.max(kMin(), Math.min(4, k || 0));
    const hw = r.width / k / 2, hh = r.height / k / 2;
    cx = clampC(cx, hw, full[0], full[2]); cy = clampC(cy, hh, full[1], full[3]);
    cam = { cx: cx, cy: cy, k: k };
    svg.setAttribute("viewBox", [cx - hw, cy - hh, 2 * hw, 2 * hh].join(" "));
    scheduleDraw();
  }
  function toMap(x, y) { const r = box(); return [cam.cx + (x - r.left - r.width / 2) / cam.k, cam.cy + (y - r.top - r.height / 2) / cam.k]; }
  function toScreen(pt) { const r = box(); return [r.left + r.width / 2 + (pt[0] - cam.cx) * cam.k, r.top + r.height / 2 + (pt[1] - cam.cy) * cam.k]; }
  // one zoom step while places are marked to tap: closer, but every mark and its name kept on screen
  function zoomOnTargets() {
    if (!sel || sel.step === "kind" || !cam) return false;
    const ms = marks(), pts = ms.map((mk) => mk.pt).concat(sel.unit ? [sel.unit] : []);
    if (pts.length < 2) return false;
    for (const p of new Set(ms.map((mk) => prov(mk.loc)))) {  // each marked place's name, wherever it stands
      const t = svg.querySelector("#labels #label_" + p), b = t && t.getBBox();
      if (b && b.width) pts.push([b.x, b.y], [b.x + b.width, b.y + b.height]);
    }
    const xs = pts.map((q) => q[0]), ys = pts.map((q) => q[1]), r = box(), margin = 50;
    const bw = Math.max(...xs) - Math.min(...xs) || 1, bh = Math.max(...ys) - Math.min(...ys) || 1;
    const fit = Math.min((r.width - 2 * margin) / bw, (r.height - 2 * margin) / bh);
    const k = Math.max(kMin(), Math.min(4, cam.k * 1.5, Math.max(cam.k, fit)));
    setCam((Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2, k);
    return true;
  }
  function zoomAbout(factor, pt) {  // the map point pt keeps its place on the screen
    const k = Math.max(kMin(), Math.min(4, cam.k * factor)), f = cam.k / k;
    setCam(pt[0] - (pt[0] - cam.cx) * f, pt[1] - (pt[1] - cam.cy) * f, k);
  }
  // the scale at which the given points are a finger apart
  function fingerScale(pts) {
    let d = Infinity;
    for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
      const e = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]); if (e > 0.5 && e < d) d = e; }
    return d === Infinity ? 1 : (FINGER + 2) / d;
  }
  function fitScale(pts, pad) {
    const r = box(), xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const w = Math.max(...xs) - Math.min(...xs), h = Math.max(...ys) - Math.min(...ys);
    return Math.min(w > 0 ? (r.width - 2 * pad) / w : Infinity, h > 0 ? (r.height - 2 * pad) / h : Infinity);
  }
  // frame ``must`` (all in view) at the finger scale of ``marks`` (times ``spread``), never beyond what fits
  function frame(must, marks, spread) {
    if (!must.length) return;
    const xs = must.map((p) => p[0]), ys = must.map((p) => p[1]);
    const k = Math.min(Math.max(fingerScale(marks) * (spread || 1), kMin(), K_EASY), fitScale(must, 26), spread ? 4 : 2.2);
    setCam((Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2, k);
  }
  function fits(must, marks) { return must.length < 2 || fitScale(must, 26) >= Math.min(fingerScale(marks), 2.2) - 1e-9; }

  let pending = false;
  function scheduleDraw() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; drawMap(); }); } }

  function setupGestures() {
    const pts = new Map(); let moved = false, start = null, pinch = null, downAt = 0;
    const mb = $("mapbox");
    mb.addEventListener("pointerdown", (e) => {
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pts.size === 1) { moved = false; downAt = Date.now(); start = [e.clientX, e.clientY, cam.cx, cam.cy]; }
      if (pts.size === 2) { const [a, b] = [...pts.values()]; moved = true;
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, k: cam.k, at: toMap(mid[0], mid[1]) }; }
    });
    mb.addEventListener("pointermove", (e) => {
      if (!pts.has(e.pointerId)) return;
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pts.size === 2 && pinch) {  // the map point that was under the fingers stays under them
        const [a, b] = [...pts.values()], d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const k = Math.max(kMin(), Math.min(4, pinch.k * d / pinch.d)), r = box();
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        setCam(pinch.at[0] - (mid[0] - r.left - r.width / 2) / k, pinch.at[1] - (mid[1] - r.top - r.height / 2) / k, k);
      } else if (pts.size === 1 && start && !pinch) {
        const dx = e.clientX - start[0], dy = e.clientY - start[1];
        if (Math.abs(dx) + Math.abs(dy) > 10) moved = true;
        if (moved) setCam(start[2] - dx / cam.k, start[3] - dy / cam.k, cam.k);
      }
    });
    const up = (e) => {
      const was = pts.has(e.pointerId); pts.delete(e.pointerId);
      if (pts.size < 2) pinch = null;
      if (e.type === "pointerup" && was && pts.size === 0 && !moved && Date.now() - downAt < 1500) tapAt(e.clientX, e.clientY);
      if (pts.size === 0) start = null;
    };
    mb.addEventListener("pointerup", up); mb.addEventListener("pointercancel", up);
    mb.addEventListener("wheel", (e) => { e.preventDefault(); zoomAbout(e.deltaY < 0 ? 1.25 : 0.8, toMap(e.clientX, e.clientY)); }, { passive: false });
    const about = () => sel && sel.unit ? sel.unit : [cam.cx, cam.cy];  // the buttons zoom about the selection
    $("zoom-in").onclick = () => { if (!zoomOnTargets()) zoomAbout(1.5, about()); };
    $("zoom-out").onclick = () => zoomAbout(1 / 1.5, about());
    $("zoom-all").onclick = () => setCam(full[0] + full[2] / 2, full[1] + full[3] / 2, 0);
    window.addEventListener("resize", () => { if (cam) setCam(cam.cx, cam.cy, cam.k); });
  }

  // -- where things are drawn ---------------------------------------------------------------------------
  const anchorOf = (loc) => anchors[loc] || anchors[prov(loc)];
  const BESIDE = [UNIT_R * 1.5, -UNIT_R * 1.5];  // a dislodged unit waits beside its space
  function unitPoint(loc, dislodged) { const a = anchorOf(loc); if (!a) return null;
    return dislodged ? [a[0] + BESIDE[0], a[1] + BESIDE[1]] : a; }
  function isRetreat() { return state && state.phase.kind === "retreat"; }

  // the marks a tap may mean at this step: {loc, pt, power?, key?, build?, sealed?}
  function marks() {
    if (!state || state.stage !== "orders" || mode !== "board") return [];
    if (!sel) {
      const out = [];
      for (const p of state.me.powers) {
        const mine = options[p] || {}, sealed = !!(state.mine[p] && state.mine[p].sealed);
        for (const key of Object.keys(mine)) {
          if (key === "build") {
            if (!(state.mine[p].missing > 0)) continue;
            const sites = [...new Set(mine.build.filter((o) => o.order.location).map((o) => prov(o.order.location)))];
            for (const s of sites) out.push({ loc: s, pt: anchorOf(s), power: p, key: "build", build: true, sealed: sealed,
              list: mine.build.filter((o) => o.order.location && prov(o.order.location) === s) });
          } else {
            const u = (isRetreat() ? state.dislodged : state.units).find((x) => prov(x.location) === key);
            const pt = u ? unitPoint(u.location, isRetreat()) : anchorOf(key);
            out.push({ loc: u ? u.location : key, pt: pt, power: p, key: key, sealed: sealed, list: mine[key] });
          }
        }
      }
      return out.filter((x) => x.pt);
    }
    if (sel.step === "kind") return [];
    return (sel.targets || []).map((loc) => ({ loc: loc, pt: sel.step === "target" ? unitPoint(loc, false) : anchorOf(loc) })).filter((x) => x.pt);
  }
  // what a tap at (x, y) css px means: {pick: mark} | {ask: [marks]} | {none: true, loc}
  // a province's name is a target too: a tap on it or within LABEL_REACH px of it (any side) means
  // that province (a tap 20 px below "Rom" gave F Nap - Tys); names closer than that to each other: ask
  function labelsAt(x, y, ms) {
    const provs = new Set(ms.map((c) => prov(c.loc))), found = [];
    for (const t of svg ? svg.querySelectorAll("#labels text[id^='label_']") : []) {
      const p = t.id.slice(6);
      if (!provs.has(p)) continue;
      const r = t.getBoundingClientRect();
      if (!r.width) continue;
      const d = Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
      if (d <= LABEL_REACH) found.push({ p: p, d: d });
    }
    return found.sort((u, v) => u.d - v.d);
  }
  function resolve(x, y) {
    const ms = marks();
    const scored = ms.map((c) => { const s = toScreen(c.pt); return { c: c, d: Math.hypot(s[0] - x, s[1] - y) }; })
      .sort((a, b) => a.d - b.d);
    const labels = labelsAt(x, y, ms);
    const markD = scored.length ? scored[0].d : Infinity;
    if (labels.length && markD > AMBIGUOUS) {  // a tap within 10 px of a mark is that mark's, always
      const names = new Set(labels.map((l) => l.p));  // two names within reach: ask which (never guess)
      for (const q of scored) if (q.d <= REACH) names.add(prov(q.c.loc));  // marks near too, by a name: ask
      const named = ms.filter((c) => names.has(prov(c.loc)));
      if (named.length === 1) return { pick: named[0] };
      if (named.length > 1) return { ask: named };
    }
    const near = scored.filter((s) => s.d <= REACH);
    if (near.length) {
      // marks less than a finger apart on the screen (a view zoomed out to show them all): any
      // tap among them asks, and magnifies them; otherwise the nearest, unless another is as near
      const first = toScreen(near[0].c.pt);
      const crowd = scored.filter((s) => { const q = toScreen(s.c.pt); return Math.hypot(q[0] - first[0], q[1] - first[1]) < FINGER; });
      if (crowd.length > 1) return { ask: [...new Set(near.concat(crowd))].sort((a, b) => a.d - b.d).map((s) => s.c) };
      const close = near.filter((s) => s.d - near[0].d < AMBIGUOUS);
      return close.length === 1 ? { pick: close[0].c } : { ask: close.map((s) => s.c) };
    }
    const loc = spaceAt(x, y);  // no mark near: the space under the finger, if a mark is in it
    if (!loc) return { none: true };
    const inside = ms.filter((c) => prov(c.loc) === prov(loc));
    if (inside.length === 1) return { pick: inside[0] };
    if (inside.length > 1) return { ask: inside };
    return { none: true, loc: loc };
  }
  function spaceAt(x, y) {
    for (const e of document.elementsFromPoint(x, y)) {
      const g = e.parentNode && e.parentNode.id;
      if (e.id && (g === "provinces" || g === "seas")) return e.id.replace("_", "/");
    }
    return null;
  }

  // -- drawing ----------------------------------------------------------------------------------------
  function svgEl(tag, attrs, cls) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (cls) e.setAttribute("class", cls);
    return e;
  }
  function drawUnit(g, u, pt, cls, extra) {
    const grp = svgEl("g");
    const shape = u.type === "F" ? svgEl("rect", { x: pt[0] - 13, y: pt[1] - 9, width: 26, height: 18, rx: 4 })
      : svgEl("circle", { cx: pt[0], cy: pt[1], r: UNIT_R });
    shape.setAttribute("fill", COLOURS[u.power] || "#bbb");
    shape.setAttribute("class", "unit " + (cls || ""));
    Object.assign(shape.dataset, extra || {});
    const t = svgEl("text", { x: pt[0], y: pt[1], fill: INK[u.power] || "#000" }, "unit-letter"); t.textContent = u.type;
    grp.appendChild(shape); grp.appendChild(t); g.appendChild(grp);
    return shape;
  }
  function cross(g, at, r) {
    for (const [w, c] of [[5, "#fff"], [2.8, "#C00000"]]) {
      g.appendChild(svgEl("path", { d: `M${at[0] - r} ${at[1] - r}L${at[0] + r} ${at[1] + r}M${at[0] - r} ${at[1] + r}L${at[0] + r} ${at[1] - r}`,
        stroke: c, "stroke-width": w, "stroke-linecap": "round", fill: "none" }));
    }
  }
  // from a unit's centre to the outside of its outline, in the direction (ux, uy) (a unit of unknown kind: an army)
  function unitEdge(u, ux, uy) {
    if (!u || u.type !== "F") return UNIT_R + 2;
    return Math.min(Math.abs(ux) > 1e-6 ? 13 / Math.abs(ux) : Infinity, Math.abs(uy) > 1e-6 ? 9 / Math.abs(uy) : Infinity) + 2;
  }
  function shorten(a, b, ga, gb) {
    const dx = b[0] - a[0], dy = b[1] - a[1], d = Math.hypot(dx, dy) || 1;
    ga = Math.min(ga, d * 0.3); gb = Math.min(gb, d * 0.4);
    return [[a[0] + dx * ga / d, a[1] + dy * ga / d], [b[0] - dx * gb / d, b[1] - dy * gb / d]];
  }
  // one order drawn as the window draws it: moves solid with a head, supports dashed to the move
  // they support, convoys dotted with a diamond, holds a ring; failed or illegal: dashed, pale,
  // a red cross (a dislodged unit carries its own mark instead)
  function drawOrder(g, o, where, failed, crossed, moves) {
    const col = COLOURS[o.power] || "#888", W = { move: 4.6, retreat: 4.6, support_hold: 3.2, support_move: 3.2, convoy: 3.2, hold: 3 }[o.kind] || 3;
    const dash = o.kind.startsWith("support") ? [8, 4] : o.kind === "convoy" ? [1.5, 4.5] : failed ? [7, 4.5] : null;
    const stroke = (d, extra) => {
      g.appendChild(svgEl("path", Object.assign({ d: d, fill: "none", stroke: "#141414", "stroke-opacity": failed ? .6 : .85,
        "stroke-width": W + 3.4, "stroke-linecap": "round", "stroke-linejoin": "round" }, dash ? { "stroke-dasharray": dash.map((x) => x * (W + 3.4) / W).join(" ") } : {}, extra || {})));
      g.appendChild(svgEl("path", Object.assign({ d: d, fill: "none", stroke: col, "stroke-opacity": failed ? .75 : 1,
        "stroke-width": W, "stroke-linecap": "round", "stroke-linejoin": "round" }, dash ? { "stroke-dasharray": dash.join(" ") } : {}, extra || {})));
    };
    const head = (tip, from, len, half) => {
      const dx = tip[0] - from[0], dy = tip[1] - from[1], d = Math.hypot(dx, dy) || 1, ux = dx / d, uy = dy / d;
      const b = [tip[0] - ux * len, tip[1] - uy * len];
      g.appendChild(svgEl("path", { d: `M${tip[0]} ${tip[1]}L${b[0] - uy * half} ${b[1] + ux * half}L${b[0] + uy * half} ${b[1] - ux * half}Z`,
        fill: col, stroke: "#141414", "stroke-width": 1.8, "stroke-linejoin": "miter" }));
    };
    const src = where(o.location);
    if (!src) return;
    if (o.kind === "move" || o.kind === "retreat") {
      const dst = anchorOf(o.destination); if (!dst) return;
      const standing = state ? (picture && mode === "results" ? picture.units : state.units) : [];
      const there = standing.find((u) => prov(u.location) === prov(o.destination));
      const gone = state ? (picture && mode === "results" ? picture.dislodged : state.dislodged) : [];
      const here = (o.kind === "retreat" ? gone.concat(standing) : standing.concat(gone)).find((u) => prov(u.location) === prov(o.location));
      let [a, b] = shorten(src, dst, UNIT_R * 1.1, there ? UNIT_R * 1.3 : UNIT_R * 0.4), c;
      const d = Math.hypot(dst[0] - src[0], dst[1] - src[1]) || 1, ux = (dst[0] - src[0]) / d, uy = (dst[1] - src[1]) / d;
      if (d - unitEdge(here, ux, uy) - (there ? unitEdge(there, -ux, -uy) : 0) >= MIN_SHAFT + 12) {
        const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2, bx = -(b[1] - a[1]) * 0.12, by = (b[0] - a[0]) * 0.12;
        c = [mx + bx, my + by];
      } else {
        // neighbours whose units nearly touch (Apu-Nap, Lvp-Yor, Ber-Kie; issue 34): a straight arrow
        // lay under them; it leaves its unit's side and bows out round both, seen in the open (as the window draws it)
        const nx = -uy, ny = ux, ax = ux * 0.5 + nx * 0.866, ay = uy * 0.5 + ny * 0.866, bxx = -ux * 0.5 + nx * 0.866, byy = -uy * 0.5 + ny * 0.866;
        const ea = unitEdge(here, ax, ay) + 3, eb = there ? unitEdge(there, bxx, byy) + 3 : 3;
        a = [src[0] + ax * ea, src[1] + ay * ea]; b = [dst[0] + bxx * eb, dst[1] + byy * eb];
        c = [(a[0] + b[0]) / 2 + nx * UNIT_R * 1.8, (a[1] + b[1]) / 2 + ny * UNIT_R * 1.8];
      }
      stroke(`M${a[0]} ${a[1]}Q${c[0]} ${c[1]} ${b[0]} ${b[1]}`);
      head(b, c, 12, 8);
      moves[prov(o.location)] = { from: a, ctrl: c, to: b, dest: prov(o.destination) };
      if (crossed) cross(g, [(a[0] + 2 * c[0] + b[0]) / 4, (a[1] + 2 * c[1] + b[1]) / 4], 6);
    } else if (o.kind === "hold") {
      g.appendChild(svgEl("circle", { cx: src[0], cy: src[1], r: UNIT_R * 1.7, fill: "none", stroke: "#141414", "stroke-width": W + 3.4 }));
      g.appendChild(svgEl("circle", { cx: src[0], cy: src[1], r: UNIT_R * 1.7, fill: "none", stroke: col, "stroke-width": W }));
      if (crossed) cross(g, [src[0] + UNIT_R * 1.2, src[1] - UNIT_R * 1.2], 6);
    } else if (o.kind === "support_hold") {
      const tgt = where(o.target); if (!tgt) return;
      const [a, b] = shorten(src, tgt, UNIT_R * 1.1, UNIT_R * 1.9);
      stroke(`M${a[0]} ${a[1]}L${b[0]} ${b[1]}`);
      g.appendChild(svgEl("circle", { cx: tgt[0], cy: tgt[1], r: UNIT_R * 1.9, fill: "none", stroke: col, "stroke-width": W, "stroke-dasharray": "8 4" }));
      if (crossed) cross(g, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], 6);
    } else if (o.kind === "support_move" || o.kind === "convoy") {
      const tgt = where(o.target), dst = anchorOf(o.destination); if (!tgt || !dst) return;
      const mv = moves[prov(o.target)];
      let end;
      if (mv && mv.dest === prov(o.destination)) { const t = 0.55;
        end = [(1 - t) * (1 - t) * mv.from[0] + 2 * (1 - t) * t * mv.ctrl[0] + t * t * mv.to[0], (1 - t) * (1 - t) * mv.from[1] + 2 * (1 - t) * t * mv.ctrl[1] + t * t * mv.to[1]];
      } else end = [tgt[0] + (dst[0] - tgt[0]) * 0.55, tgt[1] + (dst[1] - tgt[1]) * 0.55];
      const [a] = shorten(src, end, UNIT_R * 1.1, 0);
      stroke(`M${a[0]} ${a[1]}L${end[0]} ${end[1]}`);
      if (o.kind === "support_move") head(end, a, 9, 6.5);
      else g.appendChild(svgEl("path", { d: `M${end[0]} ${end[1] - 6}L${end[0] + 6} ${end[1]}L${end[0]} ${end[1] + 6}L${end[0] - 6} ${end[1]}Z`, fill: col, stroke: "#141414", "stroke-width": 1.5 }));
      if (crossed) cross(g, [(a[0] + end[0]) / 2, (a[1] + end[1]) / 2], 6);
    } else if (o.kind === "remove" || o.kind === "disband") {
      cross(g, src, 9);
    } else if (o.kind === "build") {
      drawUnit(g, { power: o.power, type: o.unit_kind || "A" }, anchorOf(o.location), "ghost");
    }
  }
  function drawMap() {
    if (!overlay || !state) return;
    overlay.textContent = "";
    spaceNames(marks());
    $("mapbox").classList.toggle("results", mode === "results");
    if (mode === "results" && picture) return drawPicture(picture);
    const mine = new Set(state.me.powers);
    const units = svgEl("g"), lines = svgEl("g"), marksG = svgEl("g");
    overlay.appendChild(units); overlay.appendChild(lines); overlay.appendChild(marksG);
    const selLoc = sel && !sel.build ? sel.loc : null;
    for (const u of state.units) drawUnit(units, u, anchorOf(u.location),
      (mine.has(u.power) ? "mine" : "") + (!isRetreat() && u.location === selLoc ? " selected" : ""),
      { loc: u.location, unit: u.power + " " + u.type + " " + u.location });
    for (const u of state.dislodged) { const pt = unitPoint(u.location, true);
      units.appendChild(svgEl("circle", { cx: pt[0], cy: pt[1], r: UNIT_R + 4, fill: "none", stroke: "#C00000", "stroke-width": 3 }));
      drawUnit(units, u, pt, (mine.has(u.power) ? "mine" : "") + " dislodged" + (isRetreat() && u.location === selLoc ? " selected" : ""),
        { loc: u.location, unit: u.power + " " + u.type + " " + u.location }); }
    const where = (loc) => { const d = isRetreat() && state.dislodged.find((x) => prov(x.location) === prov(loc));
      return d ? unitPoint(d.location, true) : anchorOf(loc); };
    const moves = {};
    for (const p of state.me.powers) {
      const list = state.mine[p].orders.slice().sort((a, b) => (a.order.kind === "move" ? 0 : 1) - (b.order.kind === "move" ? 0 : 1));
      for (const o of list) drawOrder(lines, Object.assign({ power: p }, o.order), where, !o.legal, !o.legal, moves);
    }
    for (const x of outbox()) if (x.body.order) drawOrder(lines, Object.assign({ power: x.body.power }, x.body.order), where, true, false, moves);
    const r = Math.max(15 / cam.k, UNIT_R + 3), sw = 4 / cam.k;
    const showMarks = sel ? sel.step !== "kind" : state.phase.kind === "adjustment";
    if (showMarks) for (const mk of marks()) {
      if (!sel && (!mk.build || mk.sealed)) continue;
      const isAsk = asking && asking.some((a) => a.loc === mk.loc);
      marksG.appendChild(svgEl("circle", { cx: mk.pt[0], cy: mk.pt[1], r: r, "stroke-width": sw + 3 / cam.k }, "target-halo"));
      const c = svgEl("circle", { cx: mk.pt[0], cy: mk.pt[1], r: r, "stroke-width": sw }, "target" + (isAsk ? " ask" : ""));
      c.dataset.target = mk.loc; c.dataset.loc = mk.loc; marksG.appendChild(c);
    }
  }
  function drawPicture(pic) {
    const mine = new Set(state.me.powers);
    const units = svgEl("g"), lines = svgEl("g"), top = svgEl("g");
    overlay.appendChild(units); overlay.appendChild(lines); overlay.appendChild(top);
    const gone = new Set(pic.dislodged.map((d) => prov(d.location)));
    const movement = pic.kind === "movement";
    for (const u of pic.units) if (!(movement && gone.has(prov(u.location))) && !(pic.kind === "retreat"))
      drawUnit(units, u, anchorOf(u.location), mine.has(u.power) ? "mine" : "", { result: u.location });
    if (pic.kind === "retreat") for (const u of pic.units) drawUnit(units, u, anchorOf(u.location), mine.has(u.power) ? "mine" : "");
    for (const d of pic.dislodged) { const pt = unitPoint(d.location, true);
      units.appendChild(svgEl("circle", { cx: pt[0], cy: pt[1], r: UNIT_R + 4, fill: "none", stroke: "#C00000", "stroke-width": 3 }));
      drawUnit(units, d, pt, (mine.has(d.power) ? "mine" : "") + " dislodged", { dislodged: d.location });
      cross(top, [pt[0] + UNIT_R * 0.9, pt[1] - UNIT_R * 0.9], 5); }
    const where = (loc) => gone.has(prov(loc)) ? unitPoint(loc, true) : anchorOf(loc);
    const moves = {};
    const drawn = pic.items.filter((it) => it.drawn).sort((a, b) => (a.data.kind === "move" ? 0 : 1) - (b.data.kind === "move" ? 0 : 1));
    for (const it of drawn) {
      const failed = !it.success;
      drawOrder(lines, Object.assign({ power: it.power }, it.data), where, failed, failed && !it.dislodged, moves);
    }
    for (const s of pic.standoffs) { const a = anchorOf(s); if (!a) continue; let d = "";
      for (let i = 0; i < 16; i++) { const rr = i % 2 ? 6 : 13, an = Math.PI * i / 8; d += (i ? "L" : "M") + (a[0] + rr * Math.cos(an)) + " " + (a[1] + rr * Math.sin(an)); }
      const st = svgEl("path", { d: d + "Z", fill: "rgba(200,0,0,.86)", stroke: "#fff", "stroke-width": 1.5 }); st.dataset.standoff = s; top.appendChild(st); }
  }

  // -- tapping to order ------------------------------------------------------------------------------------
  function prompt(text) { $("prompt").textContent = text || ""; }
  function choices(list) {
    const bx = $("choices"); bx.textContent = "";
    for (const [label, fn, cls] of list) { const b = el("button", label, cls); b.type = "button"; b.onclick = fn; bx.appendChild(b); }
  }
  function cancel() {  // the view goes back to where it was before the targets were framed
    const back = sel && sel.camBefore; sel = null; asking = null; prompt(""); choices([]);
    if (back && svg) setCam(back.cx, back.cy, back.k); else scheduleDraw();
  }
  function tapAt(x, y) {
    if (!state) return;
    if (mode === "results") { say("These are the results of " + (picture ? picture.label : "a past phase") + ": tap “Orders” to give orders.", false); return; }
    if (state.stage !== "orders") return;
    const r = resolve(x, y);
    if (r.ask) return ask(r.ask, x, y);
    if (r.pick) return picked(r.pick);
    if (!sel && r.loc) {
      const u = state.units.find((v) => prov(v.location) === prov(r.loc));
      if (u && !state.me.powers.includes(u.power)) say(u.type + " " + place(u.location) + " is " + name(u.power) + "'s: not one of your units.", true);
    } else if (sel && sel.step !== "kind") say(sel.step === "target" ? "Not a unit it can " + sel.kind.toLowerCase() + ": tap a marked one." : "It cannot go there: tap a marked place.", true);
  }
  function ask(list, x, y) {  // a tap as near to two marks: ask which, and magnify them
    asking = list;
    prompt("Which one did you mean?");
    const back = Object.assign({}, cam);
    if (sel && !sel.camBefore) sel.camBefore = back;
    if (!sel) askBack = back;
    choices(list.map((mk) => [askLabel(mk), () => { asking = null; picked(mk); }])
      .concat([["Cancel", () => { asking = null; if (sel) reprompt(); else { cancel(); setCam(back.cx, back.cy, back.k); } }]]));
    const pts = list.map((mk) => mk.pt);  // magnified: the marks asked about a finger and a half apart
    if (fingerScale(pts) * 1.5 > cam.k) frame(pts, pts, 1.5);
    else scheduleDraw();
  }
  function askLabel(mk) { return mk.key && !sel ? (mk.build ? "Build in " + place(mk.loc) : unitText(mk.loc)) : place(mk.loc); }
  function unitText(loc) {
    const u = state.dislodged.concat(state.units).find((v) => v.location === loc || prov(v.location) === prov(loc));
    return u ? u.type + " " + place(u.location) : place(loc);
  }
  function picked(mk) {
    asking = null;
    if (!sel) {
      if (mk.sealed) { say(name(mk.power) + " has sealed its orders: unseal to change them.", true); return; }
      return startUnit(mk);
    }
    if (sel.step === "dest") return pick(sel.list.filter((o) => o.order.destination === mk.loc), "Which way?");
    if (sel.step === "target") {
      const list = sel.list.filter((o) => prov(o.order.target) === prov(mk.loc));
      sel.list = list; sel.step = "dest2";
      sel.targets = [...new Set(list.map((o) => o.order.destination || o.order.target))];
      reprompt(); frameTargets(); return;
    }
    if (sel.step === "dest2") return pick(sel.list.filter((o) => prov(o.order.destination || o.order.target) === prov(mk.loc)), "Which one?");
  }
  // the whole map in view below the sticky header while an order is being tapped: no target under a bar
  function mapInView() {
    const mb = $("mapbox"), top = $("top").getBoundingClientRect().bottom, r = mb.getBoundingClientRect();
    if (r.top < top) window.scrollBy(0, r.top - top - 4);
  }
  // a tap on a bar (the header, the seal bar) while an order is half tapped: the order is dropped,
  // and the player told, so the next tap on the map is never taken as its target
  function barTapped(e) {
    if (!sel || !e.target.closest || !e.target.closest("#top, #sealbar") || e.target.closest("button, input, select")) return;
    const what = sel.label || "the order";
    cancel();
    say(what + ": not given (the tap landed on the bar, off the map). Tap the unit again to order it.", true);
  }
  document.addEventListener("pointerup", barTapped);
  function reprompt() {
    if (!sel) return;
    mapInView();
    const what = { dest: "Tap where it goes.", target: sel.kind === "Convoy" ? "Tap the army it convoys." : "Tap the unit it supports.",
      dest2: sel.kind === "Convoy" ? "Tap where the army goes." : "Tap where it is supported to (the unit itself: to hold)." }[sel.step];
    prompt(sel.label + ": " + what); choices([["Cancel", cancel]]); scheduleDraw();
  }
  function give(power, option) {
    const phase = state.phase.short; cancel();
    return act("/api/order", { power: power, phase: phase, order: option.order },
      { queue: describe(option.order), refuse: "Not given", done: (out) => given(out, power, phase) });
  }
  function given(out, power, phase) {  // "Given: ...", with an undo of exactly that change
    const undo = () => {
      const was = out.replaced;
      if (!was) return act("/api/clear", { power: out.power || power, phase: phase, key: out.key }, { refuse: "Not undone" });
      if (was.legal) return act("/api/order", { power: out.power || power, phase: phase, order: was.order }, { refuse: "Not undone" });
      return act("/api/order", { power: out.power || power, phase: phase, text: was.text, replace: true }, { refuse: "Not undone" });
    };
    const changed = out.replaced && out.replaced.text !== out.order;  // (the same order again: nothing replaced)
    say(out.message + (changed ? " (instead of " + out.replaced.text + ")" : ""), !!out.kept_illegal, [["Undo", undo]]);
  }
  function pick(list, question) {  // one option: give it; several (a coast, by convoy or not): ask
    if (!list.length) { say("Not possible there.", true); return; }
    const power = sel.power;
    if (list.length === 1) return give(power, list[0]);
    prompt(question);
    choices(list.map((o) => [describe(o.order), () => give(power, o)]).concat([["Cancel", cancel]]));
  }
  function startUnit(mk) {
    const list = mk.list;
    sel = { power: mk.power, key: mk.key, loc: mk.loc, list: list, build: !!mk.build, step: "kind", unit: mk.pt,
      camBefore: askBack };
    askBack = null;
    if (mk.build) {  // "Build what?": the army and the fleet (each coast) at once
      sel.label = "Build in " + place(mk.loc);
      prompt("Build what, in " + place(mk.loc) + "?");
      choices(list.map((o) => [o.order.unit_kind === "F" ? "Fleet" + (o.order.location.includes("/") ? " (" + COASTS[o.order.location.split("/")[1]] + ")" : "")
        : "Army", () => give(mk.power, o)]).concat([["Cancel", cancel]]));
      scheduleDraw(); return;
    }
    sel.label = unitText(mk.loc);
    mapInView();
    const kinds = [];
    for (const o of list) { const w = KIND_WORD[o.order.kind]; if (!kinds.includes(w)) kinds.push(w); }
    prompt("Order for " + sel.label + ":");
    const buttons = kinds.map((w) => [w, () => chooseKind(w)]);
    if (list.length > kinds.length) buttons.push(["All orders…", () => { prompt("All legal orders for " + sel.label + ":");
      choices(sel.list.map((o) => [describe(o.order), () => give(sel.power, o)]).concat([["Cancel", cancel]])); }]);
    buttons.push(["Cancel", cancel]);
    choices(buttons); scheduleDraw();
  }
  function chooseKind(word) {
    const list = sel.list.filter((o) => KIND_WORD[o.order.kind] === word);
    if (["Hold", "Disband", "Remove", "Waive", "Build"].includes(word)) return pick(list, "Which one?");
    sel.list = list; sel.kind = word;
    if (word === "Move" || word === "Retreat") { sel.step = "dest"; sel.targets = [...new Set(list.map((o) => o.order.destination))]; }
    else { sel.step = "target"; sel.targets = [...new Set(list.map((o) => o.order.target))]; }
    reprompt(); frameTargets();
  }
  function frameTargets() {  // the unit and the places to tap, a finger apart, all in view
    const pts = marks().map((mk) => mk.pt).concat(sel.unit ? [sel.unit] : []);
    const k = Math.min(fingerScale(pts), 2.2);
    const r = box();
    const inView = pts.every((p) => { const s = toScreen(p); return s[0] > r.left + 24 && s[0] < r.right - 24 && s[1] > r.top + 24 && s[1] < r.bottom - 24; });
    if (inView && cam.k >= k - 1e-9) return;
    if (!sel.camBefore) sel.camBefore = Object.assign({}, cam);
    frame(pts, pts);
  }

  // -- the first view: my units (a switch per power or region when they do not fit at once) ----------
  // the power's units (or build sites) to order: where each is, its short name, and its targets
  function orderItems(p) {
    const out = [], mine = options[p] || {};
    for (const key of Object.keys(mine)) {
      if (key === "build") {
        for (const o of mine.build) if (o.order.location && !out.some((x) => x.loc === prov(o.order.location))) {
          const s = prov(o.order.location); out.push({ pt: anchorOf(s), loc: s, short: s, targets: [] }); }
        continue;
      }
      const u = (isRetreat() ? state.dislodged : state.units).find((x) => prov(x.location) === key);
      const pt = u ? unitPoint(u.location, isRetreat()) : anchorOf(key);
      if (!pt) continue;
      const targets = [];
      for (const o of mine[key]) for (const t of [o.order.destination, o.order.target]) if (t && anchorOf(t)) targets.push(anchorOf(t));
      out.push({ pt: pt, loc: u ? u.location : key, short: u ? u.label : key, targets: targets });
    }
    if (!out.length) for (const u of state.units.filter((x) => x.power === p))
      out.push({ pt: anchorOf(u.location), loc: u.location, short: u.label, targets: [] });
    return out.filter((x) => x.pt);
  }
  function groupOf(label, items) {
    return { label: label, units: items.map((x) => x.pt), all: items.flatMap((x) => [x.pt].concat(x.targets)), locs: items.map((x) => x.loc) };
  }
  function makeGroups() {
    const per = state.me.powers.map((p) => [p, orderItems(p)]).filter((x) => x[1].length);
    if (!per.length) return [];
    const out = [];
    const union = groupOf("All", per.flatMap((x) => x[1]));
    if (per.length > 1 && fits(union.units, union.all)) out.push(union);
    for (const [p, items] of per) {
      const g = groupOf(name(p), items);
      if (fits(g.units, g.all)) { out.push(g); continue; }
      // one power spread too wide for a finger-sized view: by region (the nearest units together)
      const cl = items.map((x) => [x]);
      for (;;) {
        let best = null;
        for (let i = 0; i < cl.length; i++) for (let j = i + 1; j < cl.length; j++) {
          const merged = groupOf("", cl[i].concat(cl[j]));
          if (!fits(merged.units, merged.all)) continue;
          const s = fitScale(merged.units, 26); if (!best || s > best[0]) best = [s, i, j];
        }
        if (!best) break;
        cl[best[1]] = cl[best[1]].concat(cl[best[2]]); cl.splice(best[2], 1);
      }
      cl.sort((a, b) => Math.min(...a.map((x) => x.pt[1])) - Math.min(...b.map((x) => x.pt[1])));
      for (const c of cl) out.push(groupOf(name(p) + ": " + c.slice(0, 3).map((x) => x.short).join(", ") + (c.length > 3 ? "…" : ""), c));
    }
    return out;
  }
  function showGroup(i) {
    groupOn = i; const g = groupList[i]; if (!g) return;
    frame(g.units, g.all);
    for (const [j, b] of [...$("groups").children].entries()) b.classList.toggle("on", j === i);
  }
  function frameMine() {  // on the first state of every phase (and stage)
    if (!svg || !state || framedFor === phaseKey(state)) return;
    if (state.stage === "orders" && optionsFor !== phaseKey(state)) return;  // the options first
    framedFor = phaseKey(state);
    groupList = makeGroups();
    const bar = $("groups"); bar.textContent = "";
    if (groupList.length > 1) groupList.forEach((g, i) => { const b = el("button", g.label); b.type = "button"; b.dataset.group = i;
      b.onclick = () => showGroup(i); bar.appendChild(b); });
    if (groupList.length) showGroup(0);
  }

  // -- showing the state ---------------------------------------------------------------------------------
  let clockAt = 0;
  function tick() {
    const c = state && state.clock, e = $("clock");
    if (!c) { e.hidden = true; return; }
    let left = c.remaining - (c.running ? (Date.now() - clockAt) / 1000 : 0);
    left = Math.max(0, left);
    const mm = Math.floor(left / 60), sec = Math.floor(left % 60);
    e.hidden = false;
    e.textContent = c.title + " " + (left <= 0 || c.expired ? "time!" : mm + ":" + String(sec).padStart(2, "0") + (c.running ? "" : " (paused)"));
    e.className = left <= 0 || c.expired ? "expired" : "";
  }
  setInterval(tick, 1000);
  function show(s) {
    // an answer overtaken by a newer state (an HTTP reply after the WebSocket's push) is dropped
    if (state && s.boot === state.boot && s.version < state.version) return;
    const before = state, key = phaseKey(s), changedPhase = before && phaseKey(before) !== key;
    if (changedPhase) {  // nothing of the last phase stays: the half-built order and the typed box are said and gone
      const editing = (sel && sel.step) || asking || $("typed-text").value.trim();
      cancel(); $("typed-text").value = "";
      const what = before.phase.short === s.phase.short ? "The declarations were revealed" : before.phase.label + " was adjudicated";
      say("", false);
      if (editing) say(what + ": your unfinished order was not given.", true);
      else if (before.phase.short !== s.phase.short) say(what + ".", false, [["See the results on the map", () => setMode("results")]]);
      msgKey = key;
    }
    state = s; clockAt = Date.now(); tick();
    if (msgKey && msgKey !== key) say("");
    $("join").hidden = true; $("game").hidden = false;
    if (cam && !cam.k) setCam(cam.cx, cam.cy, 0);  // the whole map until my units are framed
    $("phase").textContent = s.over ? "Game over" : s.phase.label;
    $("who").textContent = (s.me.player ? s.me.player + ": " : "") + s.me.powers.map(name).join(", ");
    const done = s.stage === "declarations" ? s.declared : s.sealed;
    for (const strip of [$("strip"), $("seal-strip")]) { strip.textContent = "";
      for (const p of s.owing) strip.appendChild(el("span", name(p) + (s.computer && s.computer[p] ? " \u2699" : "") + (done.includes(p) ? " ✓" : " …"), "chip " + (done.includes(p) ? "sealed" : "waiting"))); }
    loadOptions();  // once per phase (again if it failed: the host was unreachable)
    if (picturesFor !== String(s.results_count || 0) + key) loadPicture(null);
    showOrders(); showDeclarations(); showResults(); showNotes(); drawMap(); frameMine();
  }
  let optionsLoading = "";
  async function loadOptions() {
    const key = phaseKey(state);
    if (optionsFor === key || optionsLoading === key) return;
    optionsLoading = key;
    try {
      const got = await api("/api/options");
      if (phaseKey(state) !== key) return;  // the phase moved on meanwhile: the next push asks again
      options = got; optionsFor = key; scheduleDraw(); frameMine();
    } catch (e) { if (!(e instanceof NetworkError)) say(e.message, true); }
    finally { if (optionsLoading === key) optionsLoading = ""; }
  }
  async function loadPicture(index) {
    const key = String(state.results_count || 0) + phaseKey(state);
    if (picturesFor !== key) { pictures = {}; picturesFor = key; }
    const at = index === null ? "latest" : String(index);
    try {
      if (!pictures[at]) { const out = await api("/api/results" + (index === null ? "" : "?index=" + index)); pictures[at] = out.results; }
      picture = pictures[at]; shownIndex = picture ? picture.index : null;
    } catch (e) { picturesFor = ""; if (!(e instanceof NetworkError)) say(e.message, true); return; }
    showResults(); scheduleDraw();
  }
  function setMode(m2) {
    mode = m2; cancel();
    $("mode").textContent = mode === "results" ? "Orders" : "Results";
    $("mode").classList.toggle("on", mode === "results"); $("mode").classList.remove("fresh");
    $("browse").hidden = mode !== "results";
    // the results are drawn where the player is looking (the switch above the map works for them too)
    showResults(); scheduleDraw();
  }
  function showOrders() {
    const list = $("order-list"); list.textContent = "";
    const seals = $("seals");
    const sealsChanged = changed(seals, [state.phase.short, state.stage, state.owing,
      state.me.powers.map((p) => [state.mine[p].sealed, state.mine[p].pin, state.mine[p].seal_code]), linkUp]);
    if (sealsChanged) seals.textContent = "";
    $("typed").hidden = state.stage !== "orders";
    const queued = outbox();
    for (const p of state.me.powers) {
      const mine = state.mine[p];
      if (state.me.powers.length > 1) list.appendChild(el("div", name(p) + (mine.sealed ? " (sealed)" : ""), "power-name"));
      if (mine.phones_joined) list.appendChild(el("div", "⚠ " + (mine.phones_joined === 1 ? "Another phone" :
        mine.phones_joined + " other phones") + " joined " + name(p) + " this game: if that was not you, tell the host",
        "missing"));
      for (const o of mine.orders) {
        const row = el("div", undefined, "order" + (o.legal ? "" : " bad")); row.dataset.order = o.text;
        const t = el("span", o.text); t.appendChild(el("span", describe(Object.assign({ power: p }, o.order)), "full"));
        if (!o.legal) t.appendChild(el("div", "illegal: " + o.problem + " (it will hold)", "illegal"));
        row.appendChild(t);
        if (!mine.sealed && state.stage === "orders") { const b = el("button", "✕"); b.type = "button"; b.setAttribute("aria-label", "clear " + o.text);
          b.onclick = () => act("/api/clear", { power: p, phase: state.phase.short, key: o.key }, { queue: "clear " + o.text }); row.appendChild(b); }
        list.appendChild(row);
      }
      for (const x of queued.filter((q) => q.body.power === p)) list.appendChild(el("div", "⏳ " + x.label + ": not sent yet (the host cannot be reached)", "queued"));
      for (const u of mine.unordered) list.appendChild(el("div", "⚠ " + unitText(u) + ": no order yet (" +
        (state.phase.kind === "retreat" ? "it will be disbanded" : state.phase.kind === "adjustment" ? "removed by the rules" : "it will hold") + ")", "missing"));
      if (state.phase.kind === "adjustment" && mine.missing > 0) {
        const row = el("div", "⚠ " + mine.missing + (mine.adjustment > 0 ? " build(s) not chosen: tap a marked home centre" : " removal(s) not chosen: tap a unit"), "missing");
        // the host's table service says when "Waive one" is offered (state.mine[p].can_waive)
        if (mine.can_waive) { const b = el("button", "Waive one"); b.type = "button"; b.onclick = () => give(p, { order: { kind: "waive" } }); row.appendChild(b); }
        list.appendChild(row);
      }
      if (!sealsChanged || state.stage !== "orders" || !state.owing.includes(p)) continue;
      const row = el("div", undefined, "seal-row");
      let pin = null;
      if (mine.pin) { pin = el("input"); pin.placeholder = "PIN"; pin.inputMode = "numeric"; pin.maxLength = 8; pin.autocomplete = "off"; row.appendChild(pin); }
      const b = el("button", mine.sealed ? "Unseal " + name(p) : "Seal " + name(p), mine.sealed ? "" : "primary");
      b.type = "button"; b.id = "seal-" + p;
      b.onclick = () => act(mine.sealed ? "/api/unseal" : "/api/seal", { power: p, phase: state.phase.short, pin: pin ? pin.value : null },
        { refuse: mine.sealed ? "Not unsealed" : "Not sealed" });
      row.appendChild(b);
      if (mine.sealed) row.appendChild(el("span", (mine.seal_code ? "sealed, code \u201c" + mine.seal_code +
        "\u201d (check it at the reveal)" : "sealed") + ": waiting for the others", "seal-code"));
      seals.appendChild(row);
    }
    $("sealbar").classList.toggle("idle", !seals.childElementCount);
    placeSealbar();
  }
  // the seal bar stays at the bottom of the screen while the orders are in view, but never over
  // their heading: in the page's first view a two-power player's bar (169 px) rose to the top of
  // its section and hid "Your orders"; until the heading is above where the bar would stick, the
  // bar waits at the end of the orders.  What scrolls into view by itself stops above the bar.
  function placeSealbar() {
    const bar = $("sealbar"), head = $("orders").querySelector("h2").getBoundingClientRect();
    const stick = !bar.classList.contains("idle") && head.height > 0 && head.bottom + 4 <= innerHeight - bar.offsetHeight;
    bar.classList.toggle("loose", !stick);
    document.documentElement.style.scrollPaddingBottom = stick ? bar.offsetHeight + "px" : "";
  }
  window.addEventListener("scroll", placeSealbar, { passive: true });
  window.addEventListener("resize", placeSealbar);
  // rebuild a part of the page only when what it shows has changed, so that a push from the host
  // (another power sealed, ...) never wipes what the player is choosing or typing there
  function changed(e, what) {
    const key = JSON.stringify(what);
    if (e.dataset.key === key) return false;
    e.dataset.key = key; return true;
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
        act("/api/declare", { power: p, phase: state.phase.short, declarations: d }, { refuse: "Not declared" }); };
      form.appendChild(b); if (mine.declared) form.appendChild(el("span", " declared (secret until all have)"));
      body.appendChild(form);
    }
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
    // the piece pusher's list is that of the latest reveal (state.results carries it)
    showPieces(state.results && (!picture || picture.phase === state.results.phase) ? state.results : null);
    const r = picture; $("results").hidden = !r; $("mode").hidden = !r && mode !== "results"; if (!r) return;
    $("results-title").textContent = "Results: " + r.label + (r.count > 1 ? " (" + (r.index + 1) + " of " + r.count + ")" : "");
    $("res-label").textContent = r.label;
    $("res-prev").disabled = r.index <= 0; $("res-next").disabled = r.index >= r.count - 1;
    if (mode !== "results" && r.index === r.count - 1 && r.phase !== $("mode").dataset.seen) { $("mode").classList.add("fresh"); }
    if (mode === "results") $("mode").dataset.seen = r.phase;
    const list = $("result-list"); list.textContent = "";
    const codes = state.seal_codes && state.seal_codes.phase === r.phase ? state.seal_codes.codes : {};
    if (Object.keys(codes).length) list.appendChild(el("div", "Seal codes: " + state.powers.filter((q) => codes[q.id])
      .map((q) => q.name + " \u201c" + codes[q.id] + "\u201d").join("; "), "seal-codes"));
    if (state.seal_codes && state.seal_codes.phase === r.phase && state.seal_codes.alarm)
      list.appendChild(el("div", state.seal_codes.alarm, "seal-alarm"));
    for (const n of r.notes || []) list.appendChild(el("div", n, "result-note"));  // civil disorder, unused builds
    const mine = new Set(state.me.powers);
    const items = r.items.slice().sort((a, b) => (mine.has(b.power) - mine.has(a.power)) || a.power.localeCompare(b.power));
    for (const it of items) { const d = el("div", undefined, "result");
      const head = el("div"); head.appendChild(el("span", name(it.power) + (codes[it.power] ? " [" + codes[it.power] + "]" : "") +
        ": " + it.order + " "));
      head.appendChild(el("span", it.verdict, it.success ? "" : (it.verdict === "fails" ? "fails" : "illegal-r"))); d.appendChild(head);
      const det = el("details"); det.appendChild(el("summary", it.reason)); det.appendChild(el("div", it.explanation)); d.appendChild(det);
      list.appendChild(d); }
  }
  function showNotes() {
    $("notes").hidden = !state.notes_allowed; if (!state.notes_allowed) return;
    const list = $("note-list"); list.textContent = "";
    for (const n of state.notes) list.appendChild(el("div", (n.phase_label || n.phase) + " — " + name(n.from) + " to " + n.to.map(name).join(", ") + ": " + n.text, "note"));
    const from = $("note-from");
    if (!from.childElementCount) {
      for (const p of state.me.powers) { const o = el("option", name(p)); o.value = p; from.appendChild(o); }
      $("note-from-row").hidden = state.me.powers.length < 2;
    }
    const to = $("note-to");
    if (!to.childElementCount) for (const q of state.powers) { if (state.me.powers.includes(q.id)) continue;
      const l = el("label"); const c = el("input"); c.type = "checkbox"; c.value = q.id; c.name = "to"; l.appendChild(c); l.appendChild(document.createTextNode(q.name)); to.appendChild(l); }
  }
  $("note-form").onsubmit = async (e) => { e.preventDefault();
    const to = [...document.querySelectorAll("#note-to input:checked")].map((c) => c.value);
    const out = await act("/api/note", { power: $("note-from").value || state.me.powers[0], to: to, text: $("note-text").value }, { refuse: "Not sent" });
    if (out) { $("note-text").value = ""; for (const c of document.querySelectorAll("#note-to input")) c.checked = false; } };
  async function typed(text, replace) {
    const phase = state.phase.short, power = state.me.powers[0];
    const body = { power: power, phase: phase, text: text }; if (replace) body.replace = true;
    const out = await act("/api/order", body, { queue: text, done: (o) => {
      if (o.needs_confirmation) say(o.message, true, [["Replace it", () => typed(text, true)], ["Keep the legal order", () => { say("Kept the legal order."); $("typed-text").value = ""; }]]);
      else given(o, power, phase); } });
    if (out && out.given) $("typed-text").value = "";
    if (out === null && outbox().some((x) => x.label === text)) $("typed-text").value = "";
  }
  $("typed").onsubmit = (e) => { e.preventDefault(); const text = $("typed-text").value; if (text.trim()) typed(text.trim(), false); };
  $("mode").onclick = () => setMode(mode === "results" ? "board" : "results");
  $("res-prev").onclick = () => { if (shownIndex > 0) loadPicture(shownIndex - 1).then(() => { if (mode === "results") scheduleDraw(); }); };
  $("res-next").onclick = () => { if (picture && shownIndex < picture.count - 1) loadPicture(shownIndex + 1); };

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

  // what the page would do with a tap, for the finger-model check (bench/ and tests/): no side effects
  window.phonePad = Object.freeze({
    marks: () => marks().map((mk) => { const s = toScreen(mk.pt); return { loc: mk.loc, x: s[0], y: s[1] }; }),
    resolve: (x, y) => { const r = resolve(x, y); return r.pick ? { pick: r.pick.loc } : r.ask ? { ask: r.ask.map((a) => a.loc) } : { none: true }; },
    box: () => { const r = box(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; },
    step: () => sel ? sel.step : null,
    asking: () => asking ? asking.map((mk) => ({ loc: mk.loc, label: askLabel(mk) })) : null,
    groups: () => groupList.map((g) => ({ label: g.label, locs: g.locs })),
    showGroup: (i) => showGroup(i),
    scale: () => cam.k,
    at: (x, y) => toMap(x, y),
    onScreen: (loc) => { const a = anchorOf(loc); return a ? toScreen(a) : null; },
    ready: () => !!state && optionsFor === phaseKey(state) && framedFor === phaseKey(state),
  });

  if (!token) { joinPage(); return; }
  loadMap().then(() => { drawMap(); connect(); refresh().catch((e) => { if (!(e instanceof NetworkError)) say(e.message, true); }); });
})();

"use strict";
// The page's frame: a router over the hash (#/runs, #/run, #/health, #/tester), the API
// helper, and small DOM helpers shared by the views. Each view file registers
// Autofix.views[name] = {title, render(root, params)}; render may return a stop() function,
// called when the user leaves the view (to end polling).
const Autofix = (() => {
  const views = {};
  let stopCurrent = null;

  function params() {
    // Query parameters of the page (the Airflow UI fills them) and of the hash, the hash winning.
    const out = Object.fromEntries(new URLSearchParams(location.search));
    const hash = location.hash.replace(/^#/, "");
    const [path, query] = hash.split("?");
    Object.assign(out, Object.fromEntries(new URLSearchParams(query || "")));
    return { view: (path || "/runs").replace(/^\//, "") || "runs", values: out };
  }

  function link(view, values) {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(values || {})) {
      if (v !== undefined && v !== null && v !== "") query.set(k, v);
    }
    const text = query.toString();
    return `#/${view}${text ? "?" + text : ""}`;
  }

  async function api(path, options) {
    const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const detail = body && body.detail ? (typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail)) : response.statusText;
      const error = new Error(`${response.status}: ${detail}`);
      error.status = response.status;
      error.detail = body ? body.detail : null; // structured details (a view may show them)
      throw error;
    }
    return body;
  }

  const get = (path, values) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(values || {})) {
      if (v !== undefined && v !== null && v !== "") query.set(k, v);
    }
    const text = query.toString();
    return api(`api/${path}${text ? "?" + text : ""}`);
  };
  const post = (path, body) => api(`api/${path}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });

  // el("div.card", {title: "x", onclick: fn}, child, "text", ...): no innerHTML anywhere, so
  // nothing from the audit trail is ever parsed as markup.
  function el(spec, attrs, ...children) {
    const [tag, ...classes] = spec.split(".");
    const node = document.createElement(tag || "div");
    if (classes.length) node.className = classes.join(" ");
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children.flat()) {
      if (child === undefined || child === null) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const fmt = {
    usd: (v) => (v === null || v === undefined ? "—" : "$" + Number(v).toFixed(v >= 1 ? 2 : 4)),
    pct: (v) => (v === null || v === undefined ? "—" : Math.round(v * 100) + "%"),
    int: (v) => (v === null || v === undefined ? "—" : Number(v).toLocaleString("en-US")),
    time: (iso) => (iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 19) + " UTC" : "—"),
    ms: (v) => (v >= 1000 ? (v / 1000).toFixed(1) + " s" : Math.round(v) + " ms"),
  };

  function status(text) { document.getElementById("status").textContent = text || ""; }

  function showError(root, error) {
    root.replaceChildren(el("div.error", { role: "alert" },
      error.status === 403 ? "Access refused: " : "Could not load: ", error.message));
  }

  async function route() {
    if (stopCurrent) { stopCurrent(); stopCurrent = null; }
    const { view, values } = params();
    const root = document.getElementById("view");
    for (const tab of document.querySelectorAll("#tabs a")) {
      tab.classList.toggle("active", tab.dataset.view === view || (view === "run" && tab.dataset.view === "runs"));
    }
    const entry = views[view];
    if (!entry) { root.replaceChildren(el("div.error", {}, `No page ${view}.`)); return; }
    document.title = `autofix · ${entry.title}`;
    root.replaceChildren(el("p.muted", {}, "Loading…"));
    try {
      const stop = await entry.render(root, values);
      if (typeof stop === "function") stopCurrent = stop;
    } catch (error) {
      showError(root, error);
    }
  }

  window.addEventListener("hashchange", route);
  window.addEventListener("DOMContentLoaded", route);
  return { views, get, post, el, svg, fmt, link, status, showError, params };
})();

"use strict";
// A run's attempt tree (GET api/run): each agent call a tree, attempt → feedback → next
// attempt, escalations as their own branch; a node opens its detail; two nodes can be diffed.
// While the DAG run is in progress the page polls and the tree grows in place.
(() => {
  const { el, fmt, get, link } = Autofix;
  const POLL_MS = 2000;
  const TERMINAL = new Set(["success", "failed"]);

  function verdict(node) {
    if (node.success) return el("span.badge.ok", {}, "valid");
    return el(`span.badge.${node.retry_class === "transient" ? "warn" : "bad"}`, {}, node.status);
  }

  function flatten(calls) {
    const out = [];
    const walk = (node, depth) => { out.push([node, depth]); node.children.forEach((c) => walk(c, depth + 1)); };
    calls.forEach((call) => walk(call, 0));
    return out;
  }

  // Line diff (longest common subsequence), enough for two attempts' outputs and errors.
  function diffLines(a, b) {
    const x = a.split("\n"), y = b.split("\n");
    const n = x.length, m = y.length;
    if (n * m > 4_000_000) return [["~", "(too long to diff here)"]];
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
      table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    const out = [];
    let i = 0, j = 0;
    while (i < n && j < m) {
      if (x[i] === y[j]) { out.push([" ", x[i]]); i++; j++; }
      else if (table[i + 1][j] >= table[i][j + 1]) out.push(["-", x[i++]]);
      else out.push(["+", y[j++]]);
    }
    while (i < n) out.push(["-", x[i++]]);
    while (j < m) out.push(["+", y[j++]]);
    return out;
  }

  function diffView(a, b) {
    const text = (node) => ["# errors", ...node.errors, "", "# output", node.output].join("\n");
    const lines = diffLines(text(a), text(b));
    return el("section.detail", { "aria-label": "diff" },
      el("h3", {}, `Attempt ${a.attempt} (${a.operation}) → attempt ${b.attempt} (${b.operation})`),
      el("pre.diff", { id: "diff" }, lines.map(([mark, line]) =>
        el(`span.${mark === "+" ? "add" : mark === "-" ? "del" : "same"}`, {}, `${mark} ${line}\n`))));
  }

  function field(label, value) {
    return [el("dt", {}, label), el("dd", {}, value === null || value === undefined || value === "" ? "—" : value)];
  }

  function detail(node) {
    const tokens = node.tokens;
    const checks = node.verification.flatMap((v) => v.checks.map((c) =>
      el("li", {}, el(`span.badge.${c.passed ? "ok" : "bad"}`, {}, c.passed ? "passed" : "failed"), ` ${c.name}`,
        c.errors.length ? el("pre", {}, c.errors.join("\n")) : null)));
    const links = node.links || {};
    return el("section.detail", { id: "detail", "aria-label": "attempt detail" },
      el("h3", {}, `${node.kind === "escalation" ? "Escalation" : "Attempt"} ${node.attempt} · ${node.operation} `, verdict(node)),
      el("dl.facts", {},
        field("Failure kind", node.failure_kind),
        field("Retry class", node.retry_class),
        field("Error categories", node.error_categories.join(", ")),
        field("Strategy", node.strategy),
        field("Agent · model", [node.agent, node.model].filter(Boolean).join(" · ")),
        field("Cost", fmt.usd(node.cost_usd) + (node.cost_source ? ` (${node.cost_source})` : "")),
        field("Tokens", `${fmt.int(tokens.input)} in · ${fmt.int(tokens.output)} out` +
          (tokens.thinking ? ` · ${fmt.int(tokens.thinking)} thinking` : "")),
        field("Latency", fmt.ms(node.latency_ms)),
        field("Finish", node.finish_reason),
        field("Noise lines", node.noise_lines ? `${node.noise_lines} (${node.matched_rules.join(", ")})` : "0"),
        field("Task", node.task_id ? `${node.task_id}${node.map_index >= 0 ? "[" + node.map_index + "]" : ""} try ${node.try_number}` : null),
        field("Recorded", fmt.time(node.recorded_at))),
      el("p", {},
        links.task_instance ? el("a", { href: links.task_instance, target: "_top" }, "Task instance") : null,
        links.log ? [" · ", el("a", { href: links.log, target: "_top" }, "Task log")] : null),
      node.errors.length ? [el("h4", {}, "Errors (ranked)"), el("ol.errors", { id: "errors" }, node.errors.map((e) => el("li", {}, e)))] : null,
      node.feedback ? [el("h4", {}, "Feedback sent for this attempt"), el("pre", { id: "feedback" }, node.feedback)] : null,
      node.prompt ? [el("h4", {}, "Prompt (redacted)"), el("pre", {}, node.prompt)] : null,
      checks.length ? [el("h4", {}, "Verification"), el("ul.checks", {}, checks)] : null,
      el("h4", {}, "Output (redacted)"), el("pre", { id: "output" }, node.output || "(none)"));
  }

  async function render(root, params) {
    const { dag_id, run_id } = params;
    if (!dag_id || !run_id) {
      root.replaceChildren(el("div.error", {}, "A run needs a DAG and a run id: open one from ", el("a", { href: "#/runs" }, "Runs"), "."));
      return null;
    }
    let selected = null, compare = [], timer = null, stopped = false, version = null;
    const header = el("div.runhead"), layout = el("div.split"), tree = el("div.tree", { id: "tree", role: "tree", "aria-label": "attempt tree" }), side = el("div.side");
    layout.append(tree, side);
    root.replaceChildren(el("p", {}, el("a", { href: link("runs", { dag_id }) }, "‹ runs of " + dag_id)), header, layout);

    function draw(data) {
      const nodes = flatten(data.calls);
      const byId = Object.fromEntries(nodes.map(([n]) => [n.id, n]));
      if (!selected || !byId[selected]) {
        // Opened from a task instance's tab: that task's latest attempt; else the run's latest.
        const mine = nodes.filter(([n]) => params.task_id && n.task_id === params.task_id &&
          (params.map_index === undefined || String(n.map_index) === String(params.map_index)));
        const pick = mine.length ? mine : nodes;
        selected = pick.length ? pick[pick.length - 1][0].id : null;
      }
      compare = compare.filter((id) => byId[id]);
      const t = data.totals;
      header.replaceChildren(...[
        el("h2", {}, `${dag_id} · ${run_id} `, data.state ? el(`span.badge.${data.state === "success" ? "ok" : data.state === "failed" ? "bad" : "warn"}`, { id: "run-state" }, data.state) : null),
        el("p.muted", { id: "totals" }, `${t.calls} calls · ${t.attempts} attempts · ${t.retries} retries · ${t.succeeded} valid · ${fmt.usd(t.cost_usd)} · ${fmt.int(t.tokens)} tokens`),
        data.event_order_violations.length ? el("p.error", {}, "Event order: " + data.event_order_violations.join("; ")) : null,
      ].filter(Boolean));
      tree.replaceChildren(...(nodes.length ? nodes.map(([node, depth]) => {
        const chosen = compare.includes(node.id);
        const box = el("input", { type: "checkbox", checked: chosen, "aria-label": `compare attempt ${node.attempt}`,
          onclick: (event) => {
            event.stopPropagation();
            compare = chosen ? compare.filter((id) => id !== node.id) : [...compare, node.id].slice(-2);
            draw(data);
          } });
        return el(`div.node.d${Math.min(depth, 8)}${node.id === selected ? ".selected" : ""}`, {
          role: "treeitem", tabindex: 0, dataset: { id: node.id, attempt: node.attempt, kind: node.kind },
          onclick: () => { selected = node.id; draw(data); },
          onkeydown: (event) => { if (event.key === "Enter") { selected = node.id; draw(data); } } },
          box,
          depth ? el("span.edge", {}, node.kind === "escalation" ? "⇪ escalated" : "↳ feedback") : null,
          el("span.op", {}, `${node.operation} #${node.attempt}`), " ", verdict(node),
          node.failure_kind ? el("span.muted", {}, ` ${node.failure_kind}`) : null,
          node.error_categories.length ? el("span.muted", {}, ` [${node.error_categories.join(", ")}]`) : null,
          el("span.meta", {}, `${fmt.usd(node.cost_usd)} · ${fmt.int(node.tokens.total)} tok · ${fmt.ms(node.latency_ms)}`));
      }) : [el("p.muted", {}, "No agent call recorded for this run yet.")]));
      const pair = compare.map((id) => byId[id]).sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
      side.replaceChildren(pair.length === 2 ? diffView(pair[0], pair[1]) : selected ? detail(byId[selected]) : el("p.muted", {}, "Select an attempt."));
    }

    async function refresh() {
      const data = await get("run", { dag_id, run_id });
      // The records' version does not change when only the run's state does: redraw then too,
      // or the badge stays "running" after the run has ended.
      const seen = `${data.version}|${data.state}`;
      if (seen !== version) { version = seen; draw(data); }
      const live = !TERMINAL.has(data.state || "") && data.state !== null;
      Autofix.status(live ? `live · updated ${new Date().toISOString().slice(11, 19)} UTC` : "");
      if (live && !stopped) timer = setTimeout(() => refresh().catch((e) => Autofix.status(e.message)), POLL_MS);
    }
    await refresh();
    return () => { stopped = true; clearTimeout(timer); Autofix.status(""); };
  }

  Autofix.views.run = { title: "Run", render };
})();

"use strict";
// Runs: the DAG runs that made agent calls, filtered and paged (GET api/runs).
(() => {
  const { el, fmt, get, link } = Autofix;
  const FILTERS = ["dag_id", "agent", "operation", "outcome", "failure_kind", "since", "until"];
  const STATE_BADGE = { success: "ok", failed: "bad", running: "warn", queued: "warn" };
  const PAGE = 25;

  function select(name, label, options, value) {
    return el("label", {}, label, el(`select`, { name, "aria-label": label },
      el("option", { value: "" }, "any"),
      options.map((option) => el("option", { value: option, selected: option === value }, option))));
  }

  function input(name, label, value, type) {
    return el("label", {}, label, el("input", { name, type: type || "text", value: value || "", "aria-label": label }));
  }

  function budget(used) {
    if (used === null || used === undefined) return el("span.muted", {}, "no limit");
    const share = Math.min(1, used);
    const bar = el("span.bar", { title: fmt.pct(used) + " of the run budget" }, el(`span.w${Math.round(share * 10)}`));
    return el("span", {}, bar, " ", fmt.pct(used));
  }

  function row(run) {
    const open = link("run", { dag_id: run.dag_id, run_id: run.run_id });
    const valid = run.outcome === "all_valid";
    return el("tr", { dataset: { dag: run.dag_id || "", run: run.run_id } },
      el("td", {}, run.dag_id || el("span.muted", {}, "(no DAG)")),
      el("td", {}, el("a", { href: open }, run.run_id)),
      el("td", {}, run.state ? el(`span.badge.${STATE_BADGE[run.state] || "warn"}`, {}, run.state) : el("span.muted", {}, "—")),
      el("td", {}, el(`span.badge.${valid ? "ok" : "bad"}`, { title: valid ? "every agent call ended valid" : "an agent call failed (it may have been retried)" }, valid ? "all valid" : "had failures")),
      el("td.num", {}, fmt.int(run.calls)),
      el("td.num", {}, fmt.pct(run.success_rate)),
      el("td.num", {}, fmt.int(run.retries)),
      el("td.num", {}, fmt.usd(run.cost_usd)),
      el("td.num", {}, fmt.int(run.tokens)),
      el("td", {}, budget(run.budget_used)),
      el("td", {}, run.agents.join(", ")),
      el("td", {}, run.failure_kinds.join(", ")),
      el("td", {}, fmt.time(run.last_at)));
  }

  async function render(root, params) {
    const offset = Number(params.offset || 0);
    const query = Object.fromEntries(FILTERS.map((name) => [name, params[name]]));
    const toIso = (value) => (value ? new Date(value + (value.length <= 16 ? ":00Z" : "")).toISOString() : undefined);
    const data = await get("runs", Object.assign({}, query, {
      since: toIso(query.since), until: toIso(query.until), offset, limit: PAGE,
    }));
    const form = el("form.filters", { role: "search" },
      select("dag_id", "DAG", data.dags, params.dag_id),
      select("agent", "Agent", data.choices.agents, params.agent),
      input("operation", "Operation", params.operation),
      select("outcome", "Agent calls", ["all_valid", "had_failures"], params.outcome),
      select("failure_kind", "Failure kind", data.choices.failure_kinds, params.failure_kind),
      input("since", "From (UTC)", params.since, "datetime-local"),
      input("until", "To (UTC)", params.until, "datetime-local"),
      el("button.primary", { type: "submit" }, "Filter"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = Object.fromEntries(new FormData(form));
      location.hash = link("runs", values);
    });
    const head = el("tr", {}, ["DAG", "Run", "Run state", "Agent calls", "Calls", "Success", "Retries", "Cost", "Tokens",
      "Budget used", "Agents", "Failure kinds", "Last call"].map((name, i) =>
      el(i >= 4 && i <= 8 ? "th.num" : "th", {}, name)));
    const body = data.runs.length
      ? data.runs.map(row)
      : [el("tr", {}, el("td.muted", { colspan: 13 }, "No run with agent calls matches."))];
    const last = Math.min(offset + data.runs.length, data.total);
    const pager = el("div.pager", {},
      el("span.muted", { id: "runs-count" }, `${data.total ? offset + 1 : 0}–${last} of ${fmt.int(data.total)} runs`),
      offset > 0 ? el("a", { href: link("runs", Object.assign({}, query, { offset: Math.max(0, offset - PAGE) })) }, "‹ newer") : null,
      last < data.total ? el("a", { href: link("runs", Object.assign({}, query, { offset: offset + PAGE })) }, "older ›") : null);
    root.replaceChildren(el("h2", {}, "Runs with agent calls"), form,
      el("table", { id: "runs", "aria-label": "runs" }, el("thead", {}, head), el("tbody", {}, body)), pager);
  }

  Autofix.views.runs = { title: "Runs", render };
})();

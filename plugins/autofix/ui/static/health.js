"use strict";
// The health page: recovery rate by error category and by strategy, cost per valid answer,
// noise lines per rule, the top recurring errors and the retry-rate alert, for a window of
// days (GET api/health). Charts are SVG drawn here, by hand; every text goes in as a text
// node and every colour as an SVG attribute (the page's CSP allows no inline style).
(() => {
  const { el, svg, fmt, link } = Autofix;
  const WINDOWS = [[1, "last 24 hours"], [7, "last 7 days"], [14, "last 14 days"], [30, "last 30 days"], [90, "last 90 days"]];
  const MAX_HOURLY_DAYS = 31;
  const COLOURS = ["#0369a1", "#b45309", "#15803d", "#b91c1c", "#7c3aed", "#0f766e", "#be185d", "#4d7c0f", "#1d4ed8", "#a16207"];
  const W = 640, H = 250, M = { top: 14, right: 16, bottom: 44, left: 60 };
  const MUTED = "#667085", GRID = "#e2e8f0";
  const NO_DATA = "no data in this window";
  let chartCount = 0;

  const colour = (i) => COLOURS[i % COLOURS.length];
  const bucketMs = (bucket) => (bucket === "hour" ? 3600e3 : 86400e3);

  // The part of a bucket inside the window: its middle (where a point goes) and its ends.
  function slot(startIso, data) {
    const since = Date.parse(data.since), until = Date.parse(data.until), start = Date.parse(startIso);
    const a = Math.max(start, since), b = Math.min(start + bucketMs(data.bucket), until);
    return { a, b, mid: (a + b) / 2 };
  }

  function niceMax(value) {
    if (!(value > 0)) return 1;
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
    return 10 * power;
  }

  // An axis tick in dollars: three significant digits at most, no trailing zeros.
  const tickUsd = (v) => "$" + Number(v.toPrecision(3)).toString();

  function dateLabel(ms, spanMs) {
    const iso = new Date(ms).toISOString();
    return spanMs <= 2 * 86400e3 ? iso.slice(5, 16).replace("T", " ") : iso.slice(5, 10);
  }

  function bucketLabel(iso, bucket) {
    return bucket === "hour" ? iso.slice(0, 16).replace("T", " ") + " UTC" : iso.slice(0, 10);
  }

  // A chart's card: heading, the SVG (role img, its <title> and <desc>), and what goes below.
  function card(title, plot, ...below) {
    return el("section.chart", { "aria-label": title }, el("h3", {}, title),
      plot || el("p.muted.no-data", {}, NO_DATA), ...below);
  }

  function canvas(title, description, height) {
    const id = `chart-${++chartCount}`;
    return svg("svg", {
      class: "plot", viewBox: `0 0 ${W} ${height}`, role: "img",
      "aria-labelledby": `${id}-title ${id}-desc`, "font-size": "11", "font-family": "system-ui, sans-serif",
    }, svg("title", { id: `${id}-title` }, title), svg("desc", { id: `${id}-desc` }, description));
  }

  // Axes over time (x: since..until) and a value (y: 0..yMax), with grid lines and labels.
  function timeAxes(root, { since, until, yMax, yTicks, yFormat, xLabel, yLabel }) {
    const plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
    const x = (ms) => M.left + ((ms - since) / (until - since)) * plotW;
    const y = (v) => M.top + plotH - (v / yMax) * plotH;
    for (let i = 0; i <= yTicks; i++) {
      const v = (yMax * i) / yTicks;
      root.append(svg("line", { x1: M.left, x2: W - M.right, y1: y(v), y2: y(v), stroke: GRID }),
        svg("text", { x: M.left - 6, y: y(v) + 4, "text-anchor": "end", fill: MUTED }, yFormat(v)));
    }
    const ticks = 6;
    for (let i = 0; i <= ticks; i++) {
      const ms = since + ((until - since) * i) / ticks;
      root.append(svg("line", { x1: x(ms), x2: x(ms), y1: M.top + plotH, y2: M.top + plotH + 4, stroke: MUTED }),
        svg("text", { x: x(ms), y: M.top + plotH + 16, "text-anchor": "middle", fill: MUTED }, dateLabel(ms, until - since)));
    }
    root.append(
      svg("line", { x1: M.left, x2: W - M.right, y1: M.top + plotH, y2: M.top + plotH, stroke: MUTED }),
      svg("text", { x: M.left + plotW / 2, y: H - 6, "text-anchor": "middle", fill: MUTED }, xLabel),
      svg("text", { x: 12, y: M.top + plotH / 2, "text-anchor": "middle", fill: MUTED,
        transform: `rotate(-90 12 ${M.top + plotH / 2})` }, yLabel));
    return { x, y };
  }

  function legend(names) {
    return el("ul.legend", { "aria-label": "legend" }, names.map((name, i) => el("li", {},
      svg("svg", { viewBox: "0 0 10 10", "aria-hidden": "true" }, svg("rect", { width: 10, height: 10, rx: 2, fill: colour(i) })),
      name)));
  }

  // Recovery rate per bucket, one line per name (a category or a strategy).
  function rateChart(data, table, names, title, what) {
    const since = Date.parse(data.since), until = Date.parse(data.until);
    const series = names.map((name) => data.buckets
      .filter((b) => b[table][name])
      .map((b) => ({ ms: slot(b.start, data).mid, start: b.start, ...b[table][name] })));
    const description = names.map((name, i) => {
      const trials = series[i].reduce((n, p) => n + p.trials, 0);
      const recovered = series[i].reduce((n, p) => n + p.recovered, 0);
      return `${name}: ${recovered} of ${trials} ${what} recovered`;
    }).join("; ");
    if (!names.length) return card(title, null);
    const root = canvas(title, description, H);
    const { x, y } = timeAxes(root, {
      since, until, yMax: 1, yTicks: 4, yFormat: fmt.pct, xLabel: `time (UTC, per ${data.bucket})`, yLabel: "recovery rate",
    });
    names.forEach((name, i) => {
      const points = series[i];
      if (points.length > 1) {
        root.append(svg("polyline", {
          points: points.map((p) => `${x(p.ms).toFixed(1)},${y(p.rate).toFixed(1)}`).join(" "),
          fill: "none", stroke: colour(i), "stroke-width": 2,
        }));
      }
      for (const p of points) {
        root.append(svg("circle", { cx: x(p.ms), cy: y(p.rate), r: 3.5, fill: colour(i) },
          svg("title", {}, `${name}, ${bucketLabel(p.start, data.bucket)}: ${fmt.pct(p.rate)} (${p.recovered} of ${p.trials} ${what})`)));
      }
    });
    return card(title, root, legend(names));
  }

  function costChart(data) {
    const title = "Cost per valid answer";
    const since = Date.parse(data.since), until = Date.parse(data.until);
    const points = data.buckets.filter((b) => b.cost_per_valid_answer !== null);
    if (!points.length) return card(title, null);
    const most = Math.max(...points.map((b) => b.cost_per_valid_answer));
    const yMax = niceMax(most);
    const description = `${points.length} ${data.bucket}s with valid answers; the most a valid answer cost in one ${data.bucket} was ${fmt.usd(most)}`;
    const root = canvas(title, description, H);
    const { x, y } = timeAxes(root, {
      since, until, yMax, yTicks: 4, yFormat: tickUsd, xLabel: `time (UTC, per ${data.bucket})`, yLabel: "USD per valid answer",
    });
    for (const b of points) {
      const { a, b: end } = slot(b.start, data);
      const width = Math.max(1.5, (x(end) - x(a)) * 0.8);
      const left = (x(a) + x(end)) / 2 - width / 2;
      root.append(svg("rect", {
        x: left.toFixed(1), y: y(b.cost_per_valid_answer).toFixed(1), width: width.toFixed(1),
        height: Math.max(0.5, y(0) - y(b.cost_per_valid_answer)).toFixed(1), fill: COLOURS[0],
      }, svg("title", {}, `${bucketLabel(b.start, data.bucket)}: ${fmt.usd(b.cost_per_valid_answer)} per valid answer (${fmt.usd(b.cost_usd)} over ${b.valid_answers} valid answers, ${b.attempts} attempts)`)));
    }
    return card(title, root);
  }

  function noiseChart(data) {
    const title = "Noise lines suppressed, by rule";
    const rows = data.noise.filter((r) => r.noise_lines > 0).slice(0, 15);
    if (!rows.length) return card(title, null);
    const rowH = 22, left = 190, right = 60, top = 8, bottom = 34;
    const height = top + rows.length * rowH + bottom;
    const xMax = niceMax(Math.max(...rows.map((r) => r.noise_lines)));
    const plotW = W - left - right;
    const description = rows.map((r) => `${r.rule}: ${r.noise_lines} lines in ${r.calls} calls`).join("; ");
    const root = canvas(title, description, height);
    rows.forEach((r, i) => {
      const top_ = top + i * rowH;
      const width = Math.max(1, (r.noise_lines / xMax) * plotW);
      const name = r.rule.length > 30 ? r.rule.slice(0, 29) + "…" : r.rule;
      root.append(
        svg("text", { x: left - 8, y: top_ + rowH / 2 + 4, "text-anchor": "end", fill: "#1a202c" }, name),
        svg("rect", { x: left, y: top_ + 3, width: width.toFixed(1), height: rowH - 6, rx: 2, fill: COLOURS[1] },
          svg("title", {}, `${r.rule}: ${r.noise_lines} noise lines in the ${r.calls} calls it matched in`)),
        svg("text", { x: left + width + 6, y: top_ + rowH / 2 + 4, fill: MUTED }, fmt.int(r.noise_lines)));
    });
    const axisY = top + rows.length * rowH + 4;
    root.append(
      svg("line", { x1: left, x2: left + plotW, y1: axisY, y2: axisY, stroke: MUTED }),
      svg("text", { x: left, y: axisY + 14, "text-anchor": "start", fill: MUTED }, "0"),
      svg("text", { x: left + plotW, y: axisY + 14, "text-anchor": "end", fill: MUTED }, fmt.int(xMax)),
      svg("text", { x: left + plotW / 2, y: axisY + 26, "text-anchor": "middle", fill: MUTED }, "noise lines in the calls the rule matched in"),
      svg("text", { x: 8, y: top + 10, fill: MUTED }, "rule"));
    return card(title, root,
      el("p.muted", {}, `${fmt.int(data.noise_lines)} noise lines in this window. A call in which several rules matched counts its noise lines under each.`));
  }

  function errorsTable(data) {
    const title = "Top recurring errors";
    if (!data.top_errors.length) return card(title, null);
    return el("section.chart.wide", { "aria-label": title }, el("h3", {}, title),
      el("table", {},
        el("thead", {}, el("tr", {}, el("th", {}, "error"), el("th.num", {}, "count"), el("th", {}, "last seen"), el("th", {}, "latest run"))),
        el("tbody", {}, data.top_errors.map((e) => el("tr", {},
          el("td.error-key", {}, e.error_key),
          el("td.num", {}, fmt.int(e.count)),
          el("td", {}, fmt.time(e.last_seen)),
          el("td", {}, el("a", { href: link("run", { dag_id: e.dag_id, run_id: e.run_id }) }, `${e.dag_id} / ${e.run_id}`)))))));
  }

  function alertState(alert) {
    let badge;
    if (!alert.enabled) badge = el("span.badge", {}, "alert off");
    else if (alert.firing) badge = el("span.badge.bad", {}, "firing");
    else if (alert.retries < alert.min_retries) badge = el("span.badge.warn", {}, "too few retries");
    else badge = el("span.badge.ok", {}, "ok");
    const numbers = alert.retries
      ? `${fmt.pct(alert.rate)} of the last ${alert.retries} retries came back valid (${alert.recovered} of ${alert.retries})`
      : "no retries yet";
    return el("p.alert-state", { role: "status" }, el("strong", {}, "Retry-rate alert "), badge, " ",
      `${numbers}; it fires below ${fmt.pct(alert.threshold)} over the last ${alert.window} retries, once there are at least ${alert.min_retries}.`);
  }

  function summary(data) {
    const attempts = data.buckets.reduce((n, b) => n + b.attempts, 0);
    const valid = data.buckets.reduce((n, b) => n + b.valid_answers, 0);
    const cost = data.buckets.reduce((n, b) => n + b.cost_usd, 0);
    const figure = (label, value) => el("div.figure", {}, el("span.muted", {}, label), el("span.value", {}, value));
    return el("div.health-summary", {},
      figure("attempts", fmt.int(attempts)),
      figure("valid answers", fmt.int(valid)),
      figure("cost per valid answer", valid ? fmt.usd(cost / valid) : "—"),
      figure("noise lines", fmt.int(data.noise_lines)));
  }

  function filters(values, dags, onChange) {
    const dag = el("select", { name: "dag_id" }, el("option", { value: "" }, "all DAGs"),
      dags.map((d) => el("option", { value: d, selected: d === values.dag_id }, d)));
    const days = el("select", { name: "days" },
      WINDOWS.map(([n, label]) => el("option", { value: n, selected: n === values.days }, label)));
    const bucket = el("select", { name: "bucket" },
      el("option", { value: "day", selected: values.bucket === "day" }, "per day"),
      el("option", { value: "hour", selected: values.bucket === "hour", disabled: values.days > MAX_HOURLY_DAYS }, "per hour"));
    const change = () => onChange({ dag_id: dag.value, days: Number(days.value), bucket: bucket.value });
    for (const select of [dag, days, bucket]) select.addEventListener("change", change);
    return el("form.filters", { "aria-label": "filters", onsubmit: (e) => e.preventDefault() },
      el("label", {}, "DAG", dag), el("label", {}, "window", days), el("label", {}, "bucket", bucket));
  }

  function settings(params) {
    const days = WINDOWS.some(([n]) => n === Number(params.days)) ? Number(params.days) : 14;
    let bucket = params.bucket === "hour" || params.bucket === "day" ? params.bucket : (days <= 1 ? "hour" : "day");
    if (days > MAX_HOURLY_DAYS) bucket = "day";
    return { dag_id: params.dag_id || "", days, bucket };
  }

  async function render(root, params) {
    const values = settings(params);
    const until = new Date();
    const since = new Date(until.getTime() - values.days * 86400e3);
    const data = await Autofix.get("health", {
      dag_id: values.dag_id, since: since.toISOString(), until: until.toISOString(), bucket: values.bucket,
    });
    const go = (next) => { location.hash = link("health", next); };
    const span = `${fmt.time(data.since)} to ${fmt.time(data.until)}`;
    root.replaceChildren(
      el("h2", {}, "Health"),
      filters(values, data.dags, go),
      el("p.muted", {}, `${values.dag_id ? `DAG ${values.dag_id}` : `${data.dags.length} DAGs you may read`}, ${span}.`),
      alertState(data.alert),
      summary(data),
      el("div.charts", {},
        rateChart(data, "by_category", data.categories, "Recovery rate by error category",
          "retried calls"),
        rateChart(data, "by_strategy", data.strategies, "Recovery rate by retry strategy", "retries"),
        costChart(data),
        noiseChart(data),
        errorsTable(data)));
  }

  Autofix.views.health = { title: "Health", render };
})();

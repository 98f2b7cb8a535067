"use strict";
// The pattern tester (#/tester): paste stderr (and an agent transcript), see the verdict and the
// rule that decided each line, against the live rulebook or an edited one. The server judges
// with the real parser (autofix.ui.tester) and writes nothing.
(() => {
  const { el, get, post } = Autofix;

  const EXAMPLES = {
    "Node deprecation warning": {
      exit: "0",
      stderr: [
        "(node:1234) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.",
        "(Use `node --trace-deprecation ...` to show where the warning was created)",
      ],
    },
    "Python traceback": {
      exit: "1",
      stderr: [
        "Traceback (most recent call last):",
        '  File "/opt/airflow/dags/etl/load.py", line 48, in <module>',
        "    main()",
        '  File "/opt/airflow/dags/etl/load.py", line 41, in main',
        "    rows = read_rows(config[\"source\"])",
        '  File "/opt/airflow/dags/etl/load.py", line 22, in read_rows',
        "    return json.loads(path.read_text())",
        '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
        "    return _default_decoder.decode(s)",
        '  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode',
        "    raise JSONDecodeError(\"Expecting value\", s, err.value) from None",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
      ],
    },
  };

  // The decisions the server gives a line, as the legend names them.
  const DECISIONS = {
    error: "error",
    failure_summary: "failure summary",
    retry: "retry notice",
    noise: "noise",
    success_summary: "success summary",
    neutral: "neutral",
    blank: "blank",
    unread: "not read",
  };

  function field(label, control, hint) {
    return el("label.tester-field", {}, el("span", {}, label), control, hint ? el("small.muted", {}, hint) : null);
  }

  function badge(kind, text, title) {
    return el(`span.badge${kind ? "." + kind : ""}`, { title }, text);
  }

  function verdictView(result) {
    const v = result.verdict;
    const badges = el("div.tester-badges", { id: "tester-verdict", dataset: { success: String(v.success) } },
      badge(v.success ? "ok" : "bad", v.success ? "success" : "failed"),
      badge(null, `status: ${v.status}`),
      badge(v.retry_class === "none" ? null : "warn", `retry class: ${v.retry_class}`, v.retry_action),
      v.failure_kind ? badge("bad", `failure kind: ${v.failure_kind}`) : null,
      v.exit_code === null ? badge(null, "judged at exit 0 (no exit code given)") : badge(null, `exit code ${v.exit_code}`),
      v.retry_after_s !== null ? badge("warn", `retry after ${v.retry_after_s} s`) : null);
    const c = result.counts;
    const parts = [
      badges,
      el("p.muted.tester-counts", {},
        `${c.lines} stderr line(s): ${c.noise} noise, ${c.error} error, ${c.neutral} neutral`,
        c.diagnostic ? `, ${c.diagnostic} diagnostic (not counted)` : "",
        ` · rules: ${result.rules.edited ? "edited (not saved)" : result.rules.source} · ${result.rules.summary}`),
      el("p.tester-action", {}, "What the task does: ", v.retry_action),
    ];
    if (v.error_message) parts.push(el("pre.tester-message", {}, v.error_message));
    if (v.evidence.length) {
      parts.push(el("ul.tester-evidence", {}, v.evidence.map((item) => el("li", {},
        el("strong", {}, item.role), " ",
        item.rule_id ? el("code", {}, item.rule_id) : "",
        item.line_no ? ` (${item.stream} line ${item.line_no})` : ` (${item.stream})`, ": ", item.text))));
    }
    for (const warning of v.warnings) parts.push(el("p.tester-warning", {}, "⚠ ", warning));
    for (const notice of v.notices) parts.push(el("p.tester-warning", {}, "Agent CLI reported: ", notice));
    return el("section.tester-verdict", { "aria-label": "Verdict" }, parts);
  }

  function legend() {
    return el("p.tester-legend", {}, "Decisions: ",
      Object.entries(DECISIONS).map(([key, label]) => el(`span.tester-decision.decision-${key}`, {}, label)));
  }

  function linesTable(title, lines, rules) {
    if (!lines.length) return el("p.muted", {}, `${title}: no lines.`);
    const rows = lines.map((line) => {
      const rule = line.rule_id ? rules.used[line.rule_id] : null;
      return el(`tr.tester-line.decision-${line.decision}`, { dataset: { decision: line.decision, rule: line.rule_id || "" } },
        el("td.num.muted", {}, String(line.line_no)),
        el("td", {}, el(`span.tester-decision.decision-${line.decision}`, {}, DECISIONS[line.decision] || line.decision)),
        el("td.tester-rule", { title: rule ? `${rule.kind} rule: ${rule.reason}` : null },
          line.decided_by,
          line.note ? el("div.tester-note", {}, line.note) : null),
        el("td.tester-text", {}, el("code", {}, line.text)));
    });
    return el("section", {},
      el("h3", {}, title),
      el("table.tester-lines", {},
        el("thead", {}, el("tr", {}, el("th.num", {}, "#"), el("th", {}, "Decision"), el("th", {}, "Decided by"), el("th", {}, "Line"))),
        el("tbody", {}, rows)));
  }

  function agentView(agent) {
    const facts = [
      ["format", agent.format], ["run status", agent.run_status], ["finish reason", agent.finish_reason],
      ["model", agent.model], ["session", agent.session_id], ["turns", agent.num_turns],
      ["tokens", Autofix.fmt.int(agent.tokens)], ["cost", Autofix.fmt.usd(agent.cost_usd)],
    ].filter(([, value]) => value !== null && value !== undefined);
    return el("section.tester-agent", {},
      el("h3", {}, "The agent's transcript"),
      el("dl.tester-facts", {}, facts.flatMap(([name, value]) => [el("dt", {}, name), el("dd", {}, String(value))])),
      agent.final_text ? el("details", {}, el("summary", {}, "Final text"), el("pre", {}, agent.final_text)) : null,
      el("details", { open: agent.events.length <= 20 },
        el("summary", {}, `${agent.events.length} event(s) read${agent.events_cut ? " (the first ones)" : ""}`),
        el("ol.tester-events", {}, agent.events.map((event) => el("li", {},
          el("code.tester-event-type", {}, event.type), " ", el("span.tester-event-text", {}, event.text))))));
  }

  function problemsView(message, problems) {
    return el("div.error.tester-problems", { role: "alert" },
      el("p", {}, message),
      problems && problems.length ? el("ul", {}, problems.map((p) => el("li", {},
        p.line ? `line ${p.line}: ` : "", p.rule_id ? `rule ${p.rule_id}: ` : "", p.message))) : null);
  }

  async function render(root) {
    const live = await get("patterns/rules");
    const stderr = el("textarea.tester-input", { id: "tester-stderr", rows: 12, spellcheck: "false",
      placeholder: "Paste a command's or an agent's stderr here" });
    const exitCode = el("input", { id: "tester-exit", type: "number", min: -255, max: 255, value: "0",
      title: "Empty: the output alone is judged, at exit 0" });
    const transcript = el("textarea.tester-input", { id: "tester-transcript", rows: 6, spellcheck: "false",
      placeholder: "Optional: the agent's stdout (its event stream, or plain text)" });
    const format = el("select", { id: "tester-format" },
      live.agent_formats.map((name) => el("option", { value: name }, name)));
    const rulesText = el("textarea.tester-input.tester-rules", { id: "tester-rules", rows: 16, spellcheck: "false" });
    rulesText.value = live.text;
    const tryRules = el("input", { id: "tester-try-rules", type: "checkbox" });
    const result = el("div", { id: "tester-result", "aria-live": "polite" });
    const runButton = el("button.primary", { id: "tester-run", type: "submit" }, "Test");

    async function test() {
      runButton.disabled = true;
      result.replaceChildren(el("p.muted", {}, "Testing…"));
      const body = { stderr: stderr.value };
      if (exitCode.value.trim() !== "") body.exit_code = Number(exitCode.value);
      if (transcript.value.trim()) {
        body.transcript = transcript.value;
        body.agent_format = format.value;
      }
      if (tryRules.checked) body.rules_text = rulesText.value;
      try {
        const answer = await post("patterns/test", body);
        const parts = [verdictView(answer), legend(), linesTable("stderr", answer.lines, answer.rules)];
        if (answer.agent) {
          parts.push(agentView(answer.agent));
          if (answer.transcript_lines && answer.transcript_lines.length) {
            parts.push(linesTable("Transcript (plain text, classified as stdout)", answer.transcript_lines, answer.rules));
          }
        }
        result.replaceChildren(...parts);
      } catch (error) {
        const detail = error.detail && typeof error.detail === "object" ? error.detail : null;
        result.replaceChildren(problemsView(detail ? detail.message : error.message, detail ? detail.problems : null));
      } finally {
        runButton.disabled = false;
      }
    }

    const examples = el("div.tester-examples", {}, el("span.muted", {}, "Examples: "),
      Object.entries(EXAMPLES).map(([name, example]) => el("button", {
        type: "button",
        onclick: () => {
          stderr.value = example.stderr.join("\n") + "\n";
          exitCode.value = example.exit;
          stderr.focus();
        },
      }, name)));

    const liveProblems = live.problems.length
      ? problemsView(`${live.path} cannot be used as it stands; in effect: ${live.in_effect}`, live.problems)
      : null;
    const rulesEditor = el("details.tester-editor", {},
      el("summary", {}, "Rules: ", live.exists ? live.path : "no pattern file", " · ", live.summary),
      el("p.muted", {}, `In effect: ${live.in_effect}. `,
        "Edit below and tick “try these rules” to test an edit before you save it; the tester saves nothing."),
      liveProblems,
      rulesText,
      el("div.tester-row", {},
        el("label.tester-check", {}, tryRules, " try these rules"),
        el("button", { type: "button", onclick: () => { rulesText.value = live.text; } }, "Reset to the live rules")));

    const form = el("form.tester-form", {
      onsubmit: (event) => { event.preventDefault(); test(); },
      onkeydown: (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); test(); }
      },
    },
      examples,
      field("stderr", stderr),
      el("div.tester-row", {}, field("Exit code", exitCode, "empty: judge the output alone"), runButton,
        el("small.muted", {}, "Ctrl+Enter")),
      el("details.tester-transcript", {},
        el("summary", {}, "Agent transcript (optional)"),
        el("div.tester-row", {}, field("Format", format)),
        transcript),
      rulesEditor);

    root.replaceChildren(el("h2", {}, "Pattern tester"), form, result);
  }

  Autofix.views.tester = { title: "Pattern tester", render };
})();

// Switchboard operator console: folds the floor stream (a snapshot, then consecutive deltas)
// into a view and renders it. No framework, no build step.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const labels = {
    en: {
      title: "Floor", connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…",
      banner: "Connection lost — reconnecting. The figures below are not live.",
      available: "Available", activityConnecting: "Connecting", onContact: "On contact",
      afterContactWork: "After-contact work", activityError: "Missed / error", customStatus: "Custom status", offline: "Offline", contactsWaiting: "Contacts waiting", oldestWait: "Oldest wait",
      queues: "Queues", queue: "Queue", waiting: "Waiting", offered: "Offered", answered: "Answered",
      abandoned: "Abandoned", serviceLevel: "Service level", serviceLevelToday: "Service level today",
      agents: "Agents", agent: "Agent", activity: "Activity", status: "Status", timeInStatus: "Time in status",
      contact: "Contact", contactState: "Contact state", noAgents: "No agents logged in",
      weekday: "Weekday", weekend: "Weekend", holiday: "Holiday", pre_holiday: "Day before a holiday",
      incoming: "Incoming", pending: "Pending", connecting_: "Connecting", connected: "Connected", onHold: "On hold",
      missed: "Missed", rejected: "Rejected", error: "Error", other: "Other", language: "日本語",
      staffing: "Staffing (forecast)", dayType: "Day", forecastNow: "Forecast (15 min)",
      neededStaffed: "Needed now / staffed now", nextHours: "Agents needed, next 3 hours", closure: "Closed",
      override: "Special hours", allQueues: "All queues", shortBy: "Short by", short: "short",
      quietQueues: "Quiet queues",
      today: "Today", legend: "Legend", legendPlan: "Plan's forecast", legendActual: "Actual (closed 15 min)",
      legendSoFar: "Current 15 min so far", legendReforecast: "Reforecast", legendNeeded: "Agents needed",
      legendStaffed: "Agents staffed", legendShortSlot: "Short (needed > staffed)", legendNow: "Now",
      axisContacts: "Contacts / 15 min", axisAgents: "Agents", axisTime: "Time",
      missesTarget: "misses target", level: "Volume vs plan", handleTime: "AHT vs plan",
      shortNextHour: "Short next hour", staffedFromPlan: "staffed as planned", staffedFromFloor: "staffed: the floor now",
      target: "target", quietToday: "Nothing planned or offered today", forecastFromHistory: "plan: from the history",
      storedPlan: "plan: stored plan",
      shortfallBanner: (names) => `Predicted to miss the service-level target within the hour: ${names}`,
      shortAgents: (n) => `short by ${n} ${n === "1" ? "agent" : "agents"}`,
      named: (name, what) => `${name} (${what})`, listSeparator: ", ",
      whatIf: "What if", change: "Change", addAgents: "Add agents", moveAgents: "Move agents from another queue",
      fromQueue: "From queue", agentsCount: "Agents", windowFrom: "From", windowTo: "to", predict: "Predict",
      time: "Time", staffedHeader: "Staffed", asa: "ASA", abandonment: "Abandonment", without: "without", with: "with",
      whatIfEmpty: "No planned 15 minutes in that window.", refused: "Refused:",
    },
    ja: {
      title: "フロア", connecting: "接続中…", live: "ライブ", reconnecting: "再接続中…",
      banner: "接続が切れました。再接続しています。以下の数値はライブではありません。",
      available: "受付可能", activityConnecting: "呼出中", onContact: "対応中", afterContactWork: "後処理",
      activityError: "不在・エラー", customStatus: "離席",
      offline: "オフライン", contactsWaiting: "待ち呼", oldestWait: "最長待ち時間",
      queues: "キュー", queue: "キュー", waiting: "待ち", offered: "着信", answered: "応答", abandoned: "放棄",
      serviceLevel: "サービスレベル", serviceLevelToday: "本日のサービスレベル",
      agents: "オペレーター", agent: "オペレーター", activity: "状態", status: "ステータス",
      timeInStatus: "経過時間", contact: "コンタクト", contactState: "コンタクト状態",
      noAgents: "ログイン中のオペレーターはいません",
      weekday: "平日", weekend: "週末", holiday: "祝日", pre_holiday: "祝前日",
      incoming: "着信中", pending: "保留中", connecting_: "接続中", connected: "通話中", onHold: "保留",
      missed: "不在", rejected: "拒否", error: "エラー", other: "その他", language: "English",
      staffing: "必要人員（予測）", dayType: "日種別", forecastNow: "予測着信（15分）",
      neededStaffed: "必要 / 在席", nextHours: "今後3時間の必要人数", closure: "休業",
      override: "特別営業", allQueues: "全キュー", shortBy: "不足", short: "不足",
      quietQueues: "落ち着いているキュー",
      today: "本日", legend: "凡例", legendPlan: "計画の予測", legendActual: "実績（確定した15分）", legendSoFar: "現在の15分（途中）",
      legendReforecast: "再予測", legendNeeded: "必要人数", legendStaffed: "在席人数",
      legendShortSlot: "不足（必要 > 在席）", legendNow: "現在",
      axisContacts: "着信数／15分", axisAgents: "人数", axisTime: "時刻",
      missesTarget: "目標未達の見込み", level: "着信 計画比", handleTime: "処理時間 計画比",
      shortNextHour: "今後1時間の不足", staffedFromPlan: "在席は計画どおり", staffedFromFloor: "在席は現在のフロア",
      target: "目標", quietToday: "本日の計画・着信なし", forecastFromHistory: "計画：履歴から予測",
      storedPlan: "計画：保存済みの計画",
      shortfallBanner: (names) => `1時間以内にサービスレベル目標を下回る見込み：${names}`,
      shortAgents: (n) => `${n}人不足`,
      named: (name, what) => `${name}（${what}）`, listSeparator: "、",
      whatIf: "もしも（what-if）", change: "変更", addAgents: "人員を追加", moveAgents: "他のキューから移動",
      fromQueue: "移動元キュー", agentsCount: "人数", windowFrom: "開始", windowTo: "終了", predict: "予測する",
      time: "時刻", staffedHeader: "在席", asa: "平均応答速度", abandonment: "放棄率", without: "変更なし",
      with: "変更あり", whatIfEmpty: "その時間帯に計画された15分はありません。", refused: "受け付けられません：",
    },
  };
  let lang = params.get("lang") || localStorage.getItem("switchboard.lang") ||
    ((navigator.language || "").startsWith("ja") ? "ja" : "en");
  const t = (key) => (labels[lang] && labels[lang][key]) || labels.en[key] || key;
  // Agent activities (Connect's Agent Activity) whose names other labels already use.
  const activityLabel = (activity) => t({ connecting: "activityConnecting", error: "activityError" }[activity] || activity);

  // The folded stream.
  let view = null, seq = null, epoch = null, live = false, today = null, staffing = null;
  let socket = null, retryDelay = 1000, lastMessageAt = 0;

  const $ = (selector) => document.querySelector(selector);
  const text = (value) => document.createTextNode(value == null ? "" : String(value));
  function cell(row, value, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    if (value instanceof Node) td.appendChild(value); else td.appendChild(text(value));
    row.appendChild(td);
    return td;
  }
  function elapsed(since) {
    if (!since) return "";
    const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
    const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
  }
  const percent = (value) => value == null ? "–" : `${Math.round(value * 100)}%`;
  const contactState = (state) => t(state === "connecting" ? "connecting_" : state);

  function applyDelta(delta) {
    const agents = new Map(view.agents.map((a) => [a.id, a]));
    for (const id of delta.removedAgents) agents.delete(id);
    for (const agent of delta.agents) agents.set(agent.id, agent);
    const queues = new Map(view.queues.map((q) => [q.id, q]));
    for (const id of delta.removedQueues) queues.delete(id);
    for (const queue of delta.queues) queues.set(queue.id, queue);
    const byName = (a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    view = {
      businessDay: delta.businessDay, serviceLevelThresholdSeconds: view.serviceLevelThresholdSeconds,
      agents: [...agents.values()].sort(byName), queues: [...queues.values()].sort(byName), summary: delta.summary,
    };
  }

  function setLive(value) {
    live = value;
    document.body.classList.toggle("stale", !live);
    const banner = $("#banner");
    banner.hidden = live;
    banner.textContent = t("banner");
    const connection = $("#connection");
    connection.dataset.state = live ? "live" : (view ? "reconnecting" : "connecting");
    connection.textContent = t(connection.dataset.state);
  }

  function render() {
    document.documentElement.lang = lang;
    for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
    $("#language").textContent = t("language");
    setLive(live);
    renderIntraday();
    if (today) {
      const dayType = $("#day-type");
      dayType.dataset.dayType = today.dayType;
      const name = today.holiday ? ` ${lang === "ja" ? today.holiday.nameJa : today.holiday.nameEn}` : "";
      dayType.textContent = t(today.dayType) + name;
    }
    if (!view) return;
    $("#business-day").textContent = view.businessDay || today?.date || "";
    const summary = view.summary;
    for (const key of ["available", "connecting", "onContact", "afterContactWork", "error", "customStatus", "offline",
      "contactsWaiting"]) {
      $(`#tile-${key}`).textContent = summary[key];
    }
    $("#tile-oldestWait").textContent = summary.oldestWaitSince ? elapsed(summary.oldestWaitSince) : "–";

    const queueRows = view.queues.map((queue) => {
      const row = document.createElement("tr");
      row.dataset.queueId = queue.id;
      cell(row, queue.name);
      cell(row, queue.waiting, "number");
      cell(row, queue.oldestWaitSince ? elapsed(queue.oldestWaitSince) : "–", "number ticking").dataset.since =
        queue.oldestWaitSince || "";
      cell(row, queue.offered, "number");
      cell(row, queue.answered, "number");
      cell(row, queue.abandoned, "number");
      cell(row, percent(queue.serviceLevel), "number");
      return row;
    });
    $("#queues tbody").replaceChildren(...queueRows);

    const agentRows = view.agents.map((agent) => {
      const row = document.createElement("tr");
      row.dataset.agentId = agent.id;
      row.dataset.activity = agent.activity;
      cell(row, agent.name, "name");
      const badge = document.createElement("span");
      badge.className = `activity ${agent.activity}`;
      badge.textContent = activityLabel(agent.activity);
      cell(row, badge, "activity-cell");
      cell(row, agent.status, "status");
      cell(row, elapsed(agent.statusSince), "ticking").dataset.since = agent.statusSince || "";
      const contact = agent.contacts[0];
      cell(row, contact ? `${contact.channel || ""} ${contact.contactId.slice(0, 8)}` : "");
      cell(row, contact ? contactState(contact.state) : "", "contact-state");
      cell(row, contact ? contact.queue || "" : "");
      return row;
    });
    if (agentRows.length === 0) {
      const row = document.createElement("tr");
      cell(row, t("noAgents")).colSpan = 7;
      agentRows.push(row);
    }
    $("#agents tbody").replaceChildren(...agentRows);
    $("#seq").textContent = `seq ${seq}`;
    renderStaffing();
  }

  // The staffing panel: per queue today's forecast and agents needed by 15 minutes, and the
  // agents staffed now by routing profile (GET /v1/staffing: one figure with the MCP tools; an
  // agent serving several queues counts toward each in proportion to their forecast load).
  // Queues are sorted by shortfall (needed minus staffed), the short ones first and marked;
  // quiet queues (nobody needed now nor in the next 3 hours, none short, nobody waiting) fold
  // into one line. The next 3 hours are bars of agents needed, the line across them the agents
  // staffed now.
  const figure = (value) => value == null ? "–" : String(Math.round(value * 10) / 10);
  const clock = (n) => `${String(Math.floor(n / 4) % 24).padStart(2, "0")}:${String((n % 4) * 15).padStart(2, "0")}`;
  const svgNS = "http://www.w3.org/2000/svg";
  function svg(name, attributes) {
    const element = document.createElementNS(svgNS, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }
  // Bars of the agents needed in `needs` (12 slots), on a scale of `top`; the dashed line is
  // `staffed`. A slot needing more than are staffed now is drawn in the alert colour and taller
  // than the line, so it reads without colour too.
  function sparkline(needs, staffed, top, firstSlot) {
    const width = 12 * 9, height = 28, scale = (v) => height - 2 - (height - 4) * Math.min(v, top) / top;
    const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "sparkline", role: "img" });
    const title = svg("title", {});
    title.textContent = needs.map((n, i) => `${clock(firstSlot + i)} ${n}`).join(", ");
    chart.appendChild(title);
    needs.forEach((need, i) => {
      const y = scale(need);
      const bar = svg("rect", { x: i * 9 + 1, y, width: 7, height: Math.max(0, height - 2 - y), class: "bar" });
      if (staffed != null && need > staffed) bar.classList.add("over");
      bar.dataset.slot = firstSlot + i;
      bar.dataset.agents = need;
      chart.appendChild(bar);
    });
    if (staffed != null) {
      const y = scale(staffed);
      chart.appendChild(svg("line", { x1: 0, x2: width, y1: y, y2: y, class: "staffed" }));
    }
    return chart;
  }
  function renderStaffing() {
    const section = $("#staffing-section");
    if (!staffing || staffing.queues.length === 0) { section.hidden = true; return; }
    section.hidden = false;
    const slot = staffing.now_slot;
    const floorQueues = new Map((view ? view.queues : []).flatMap((q) => [[q.id, q], [q.name, q]]));
    let neededTotal = 0;
    const entries = staffing.queues.map((queue) => {
      const day = queue.days.find((d) => d.date === staffing.now_date) || queue.days[0];
      const bySlot = new Map(day.slots.map((s) => [s.slot, s]));
      // Past midnight the next 3 hours are tomorrow's first slots.
      const tomorrow = queue.days.find((d) => d.date === nextDate(staffing.now_date));
      const nextBySlot = new Map((tomorrow ? tomorrow.slots : []).map((s) => [s.slot + 96, s]));
      const now = bySlot.get(slot);
      const needed = now && now.agents != null ? now.agents : 0;
      neededTotal += now && now.fractional_agents != null ? now.fractional_agents : 0;
      const next = [];
      for (let n = slot + 1; n <= slot + 12; n++) {
        const s = bySlot.get(n) || nextBySlot.get(n);
        next.push(s && s.agents != null ? s.agents : 0);
      }
      const staffed = queue.staffed_now;
      const shortfall = staffed == null ? null : needed - staffed;
      const floor = floorQueues.get(queue.queue) || floorQueues.get(queue.queue_name);
      const waiting = floor ? floor.waiting : 0;
      const quiet = needed === 0 && next.every((n) => n === 0) && !(shortfall > 0) && waiting === 0;
      return { queue, day, now, needed, next, staffed, shortfall, floor, quiet };
    });
    const top = Math.max(1, ...entries.flatMap((e) => [...e.next, e.staffed || 0]));
    const byShortfall = (a, b) => (b.shortfall ?? -Infinity) - (a.shortfall ?? -Infinity) ||
      (a.queue.queue_name < b.queue.queue_name ? -1 : a.queue.queue_name > b.queue.queue_name ? 1 : 0);
    const rows = entries.filter((e) => !e.quiet).sort(byShortfall).map((e) => {
      const row = document.createElement("tr");
      row.dataset.queueId = e.queue.queue;
      const short = e.shortfall != null && e.shortfall > 1e-9;
      row.classList.toggle("short", short);
      const name = cell(row, e.queue.queue_name, "name");
      if (short) {
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.textContent = `▲ ${t("short")}`;
        name.appendChild(mark);
      }
      const types = e.day.day_types.split("+");
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.dataset.dayType = types.find((x) => x === "holiday") || types.find((x) => x === "pre_holiday") || types[0];
      badge.textContent = types.map(t).join(" + ");
      cell(row, badge, "day-type");
      const level = e.floor ? e.floor.serviceLevel : null;
      cell(row, percent(level), "number service-level" + (level != null && level < 0.8 ? " low" : ""));
      cell(row, e.now ? e.now.offered.toFixed(1) : "0.0", "number");
      const td = cell(row, `${e.needed} / ${figure(e.staffed)}`, "number needed-staffed");
      if (short) td.classList.add("understaffed");
      cell(row, short ? `−${figure(e.shortfall)}` : "", "number shortfall");
      cell(row, sparkline(e.next, e.staffed, top, slot + 1), "slots");
      return row;
    });
    const quiet = entries.filter((e) => e.quiet).map((e) => e.queue.queue_name).sort();
    if (quiet.length > 0) {
      const row = document.createElement("tr");
      row.className = "quiet";
      const td = cell(row, `${t("quietQueues")} (${quiet.length}): ${quiet.join(", ")}`);
      td.colSpan = 7;
      rows.push(row);
    }
    const total = document.createElement("tr");
    total.className = "total";
    cell(total, t("allQueues"));
    cell(total, "");
    cell(total, "");
    cell(total, "");
    const needed = Math.ceil(neededTotal - 1e-9);
    const pool = staffing.staffed_now;
    const td = cell(total, `${needed} / ${pool == null ? "–" : pool}`, "number needed-staffed");
    if (pool != null && pool < needed) td.classList.add("understaffed");
    cell(total, pool != null && pool < needed ? `−${needed - pool}` : "", "number shortfall");
    cell(total, "");
    rows.push(total);
    $("#staffing tbody").replaceChildren(...rows);
    $("#staffing-notes").textContent = staffing.notes.join(" · ");
  }

  // The date after `date` ("YYYY-MM-DD").
  function nextDate(date) {
    const [y, m, d] = date.split("-").map(Number);
    return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  }
  // Today's plan, and tomorrow's while the next 3 hours run past midnight (the server's date and
  // slot, from its last answer: a window that crosses midnight asks again at once for both days).
  async function loadStaffing() {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    try {
      let query = "";
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await fetch(`/v1/staffing${query}`, { headers });
        if (!response.ok) return;
        staffing = await response.json();
        render();
        if (staffing.now_slot + 12 < 96) return;
        const tomorrow = nextDate(staffing.now_date);
        if (staffing.queues.every((q) => q.days.some((d) => d.date === tomorrow))) return;
        query = `?from=${staffing.now_date}&to=${tomorrow}`;
      }
    } catch (_) { /* shown again at the next attempt */ }
  }

  // Today (GET /v1/staffing/intraday): per queue a chart of the business day: the plan's forecast
  // (solid line), the contacts of each closed 15 minutes (bars) and of the current one so far
  // (an outlined bar), the reforecast from now to the end of the day (dashed), and below it the
  // agents needed (solid steps) against the agents staffed (dotted steps), the slots short of
  // agents shaded; a vertical line at now. Colours from the Okabe–Ito palette, and every series
  // differs by its shape too. Queues predicted to miss their target first, then by shortfall;
  // queues with nothing planned nor offered fold into one line. A red banner names the queues
  // predicted to miss their target within the hour. The what-if form asks the same endpoint
  // with a change and shows each slot of its window with and without it.
  let intraday = null, whatIf = null, whatIfError = null, intradayVersion = 0, intradayDrawn = null;
  const authorization = () => token ? { Authorization: `Bearer ${token}` } : {};
  const minuteClock = (minute) => {
    const whole = Math.floor(minute);
    return `${String(Math.floor(whole / 60) % 24).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
  };
  // The business day's clock (`24:15` is a quarter past midnight of the night after), as the
  // endpoint's what-if windows are written.
  const dayClock = (minute) =>
    `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
  const seconds = (value) => value == null ? "–" : `${Math.round(value)} s`;
  const r1 = (value) => Math.round(value * 10) / 10;
  const busySlot = (s) => (s.plan_offered || 0) > 0 || (s.actual_offered || 0) > 0 || (s.reforecast_offered || 0) > 0;
  function niceCeiling(value) {
    if (!(value > 0)) return 1;
    const power = 10 ** Math.floor(Math.log10(value));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= value - 1e-9) return m * power;
    return 10 * power;
  }

  const series = [
    { key: "legendPlan", className: "plan", swatch: () => svg("line", { x1: 1, x2: 27, y1: 7, y2: 7, class: "plan" }) },
    { key: "legendActual", className: "actual", swatch: () => svg("rect", { x: 9, y: 2, width: 10, height: 11, class: "actual" }) },
    { key: "legendSoFar", className: "so-far", swatch: () => svg("rect", { x: 9, y: 2, width: 10, height: 11, class: "so-far" }) },
    { key: "legendReforecast", className: "reforecast",
      swatch: () => svg("line", { x1: 1, x2: 27, y1: 7, y2: 7, class: "reforecast" }) },
    { key: "legendNeeded", className: "needed", swatch: () => svg("path", { d: "M 1 11 H 10 V 3 H 27", class: "needed" }) },
    { key: "legendStaffed", className: "staffed", swatch: () => svg("path", { d: "M 1 7 H 27", class: "staffed" }) },
    { key: "legendShortSlot", className: "short-slot",
      swatch: () => svg("rect", { x: 6, y: 1, width: 16, height: 13, class: "short-slot" }) },
    { key: "legendNow", className: "now", swatch: () => svg("line", { x1: 14, x2: 14, y1: 0, y2: 14, class: "now" }) },
  ];
  function renderLegend() {
    const items = series.map((entry) => {
      const item = document.createElement("li");
      item.dataset.series = entry.className;
      const swatch = svg("svg", { width: 28, height: 14, viewBox: "0 0 28 14", class: "intraday", "aria-hidden": "true" });
      swatch.appendChild(entry.swatch());
      item.appendChild(swatch);
      const label = document.createElement("span");
      label.textContent = t(entry.key);
      item.appendChild(label);
      return item;
    });
    const legend = $("#intraday-legend");
    legend.setAttribute("aria-label", t("legend"));
    legend.replaceChildren(...items);
  }

  // One queue's day as an SVG: contacts per 15 minutes above, agents below, sharing the time axis.
  function intradayChart(queue, minute) {
    const width = 460, height = 240, left = 46, right = 10, top = 20, volumeBottom = 134;
    const agentsTop = 150, agentsBottom = 198;
    const busy = queue.slots.filter((s) => busySlot(s) || (s.agents_needed || 0) > 0);
    const nowSlot = Math.floor(minute / 15);
    const first = Math.min(nowSlot, ...busy.map((s) => s.slot)), last = Math.max(nowSlot, ...busy.map((s) => s.slot));
    const start = first * 15, end = (last + 1) * 15;
    const x = (m) => r1(left + (width - left - right) * (m - start) / (end - start));
    const shown = queue.slots.filter((s) => s.slot >= first && s.slot <= last);
    const volumeTop = niceCeiling(Math.max(0, ...shown.flatMap((s) =>
      [s.plan_offered || 0, s.actual_offered || 0, s.state === "closed" ? 0 : s.reforecast_offered || 0])));
    const yv = (v) => r1(volumeBottom - (volumeBottom - top) * Math.min(v, volumeTop) / volumeTop);
    const agentsTopValue = Math.max(1, Math.ceil(Math.max(0, ...shown.flatMap((s) =>
      [s.agents_needed || 0, s.staffed || 0]))));
    const ya = (v) => r1(agentsBottom - (agentsBottom - agentsTop) * Math.min(v, agentsTopValue) / agentsTopValue);

    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "intraday", role: "img",
      "aria-label": `${queue.queue_name}: ${t("today")}` });
    chart.dataset.queueId = queue.queue;
    const title = svg("title", {});
    title.textContent = `${queue.queue_name} — ${t("legendPlan")}, ${t("legendActual")}, ${t("legendReforecast")}, ` +
      `${t("legendNeeded")}, ${t("legendStaffed")}`;
    chart.appendChild(title);
    const label = (value, attributes) => {
      const element = svg("text", attributes);
      element.textContent = value;
      chart.appendChild(element);
      return element;
    };

    // Slots short of agents from now on, behind everything else.
    for (const s of shown) {
      if (s.state === "closed" || s.agents_needed == null || s.staffed == null || s.agents_needed <= s.staffed + 1e-9) continue;
      const shade = svg("rect", { x: x(s.slot * 15), y: agentsTop, width: r1(x(s.slot * 15 + 15) - x(s.slot * 15)),
        height: agentsBottom - agentsTop, class: "short-slot" });
      shade.dataset.slot = s.slot;
      chart.appendChild(shade);
    }

    // Axes: the two panels' frames, their scales, the hours.
    for (const [y1, y2] of [[top, volumeBottom], [agentsTop, agentsBottom]]) {
      chart.appendChild(svg("line", { x1: left, x2: left, y1, y2, class: "axis" }));
      chart.appendChild(svg("line", { x1: left, x2: width - right, y1: y2, y2, class: "axis" }));
    }
    label("0", { x: left - 4, y: volumeBottom + 3, "text-anchor": "end" });
    label(String(volumeTop), { x: left - 4, y: top + 3, "text-anchor": "end", class: "scale" });
    label("0", { x: left - 4, y: agentsBottom + 3, "text-anchor": "end" });
    label(String(agentsTopValue), { x: left - 4, y: agentsTop + 3, "text-anchor": "end", class: "scale" });
    label(t("axisContacts"), { x: 10, y: (top + volumeBottom) / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 10 ${(top + volumeBottom) / 2})` });
    label(t("axisAgents"), { x: 10, y: (agentsTop + agentsBottom) / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 10 ${(agentsTop + agentsBottom) / 2})` });
    const hours = (end - start) / 60;
    const every = hours > 12 ? 3 : hours > 6 ? 2 : 1;
    for (let hour = Math.ceil(start / 60); hour * 60 <= end; hour++) {
      const tick = x(hour * 60);
      chart.appendChild(svg("line", { x1: tick, x2: tick, y1: agentsBottom, y2: agentsBottom + 3, class: "axis" }));
      if (hour % every === 0) label(minuteClock(hour * 60), { x: tick, y: agentsBottom + 14, "text-anchor": "middle" });
    }
    label(t("axisTime"), { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle", class: "axis-title" });

    // Contacts: the actuals as bars, the plan and the reforecast as lines.
    const slotWidth = (width - left - right) * 15 / (end - start);
    for (const s of shown) {
      if (!((s.actual_offered || 0) > 0) || s.state === "future") continue;
      const y = yv(s.actual_offered);
      const bar = svg("rect", { x: r1(x(s.slot * 15) + slotWidth * 0.15), y, width: r1(slotWidth * 0.7),
        height: r1(volumeBottom - y), class: s.state === "closed" ? "actual" : "so-far" });
      bar.dataset.slot = s.slot;
      bar.dataset.offered = s.actual_offered;
      const tip = svg("title", {});
      tip.textContent = `${s.start} ${t(s.state === "closed" ? "legendActual" : "legendSoFar")}: ${figure(s.actual_offered)}` +
        ` · ${t("legendPlan")}: ${figure(s.plan_offered)}`;
      bar.appendChild(tip);
      chart.appendChild(bar);
    }
    const planPoints = shown.map((s) => [x(s.slot * 15 + 7.5), yv(s.plan_offered || 0)]);
    const plan = svg("path", { d: planPoints.map(([px, py], i) => `${i ? "L" : "M"} ${px} ${py}`).join(" "), class: "plan" });
    plan.dataset.points = planPoints.length;
    chart.appendChild(plan);
    const current = shown.find((s) => s.state === "current");
    const future = shown.filter((s) => s.state === "future");
    const from = current || future[0];
    if (from && minute >= start && minute <= end) {
      const points = [[x(minute), yv(from.reforecast_offered || 0)],
        ...future.map((s) => [x(s.slot * 15 + 7.5), yv(s.reforecast_offered || 0)])];
      const reforecast = svg("path", { d: points.map(([px, py], i) => `${i ? "L" : "M"} ${px} ${py}`).join(" "),
        class: "reforecast" });
      reforecast.dataset.points = points.length;
      reforecast.dataset.startMinute = minute;
      chart.appendChild(reforecast);
    }

    // Agents: needed against staffed, as steps over each 15 minutes.
    const steps = (value) => {
      let d = "", previous = null;
      for (const s of shown) {
        const v = value(s);
        if (v == null) { previous = null; continue; }
        const x0 = x(s.slot * 15), x1 = x(s.slot * 15 + 15), y = ya(v);
        d += previous === s.slot - 1 ? ` V ${y} H ${x1}` : ` M ${x0} ${y} H ${x1}`;
        previous = s.slot;
      }
      return d.trim();
    };
    const needed = steps((s) => s.agents_needed);
    if (needed) chart.appendChild(svg("path", { d: needed, class: "needed" }));
    const staffed = steps((s) => s.staffed);
    if (staffed) chart.appendChild(svg("path", { d: staffed, class: "staffed" }));

    const nowX = x(minute);
    const now = svg("line", { x1: nowX, x2: nowX, y1: top - 6, y2: agentsBottom, class: "now" });
    now.dataset.minute = minute;
    chart.appendChild(now);
    label(`${t("legendNow")} ${minuteClock(minute)}`, { x: nowX, y: top - 9, class: "now-label",
      "text-anchor": nowX > width - 60 ? "end" : nowX < left + 40 ? "start" : "middle" });
    return chart;
  }

  function renderShortfallBanner() {
    const banner = $("#shortfall-banner");
    const missing = intraday ? intraday.queues.filter((q) => q.misses_target_next_hour) : [];
    const names = missing.map((q) => q.shortfall_next_hour > 1e-9
      ? t("named")(q.queue_name, t("shortAgents")(figure(q.shortfall_next_hour))) : q.queue_name);
    const message = missing.length === 0 ? "" : t("shortfallBanner")(names.join(t("listSeparator")));
    banner.hidden = missing.length === 0;
    // An alert is read out when its text changes: not again at every refresh.
    if (banner.textContent !== message) banner.textContent = message;
  }

  // The label a change names a queue by: its name, or its id where the name is ambiguous or
  // would not parse in `N:FROM->TO@…`.
  function queueLabel(id) {
    const queues = intraday ? intraday.queues : [];
    const queue = queues.find((q) => q.queue === id);
    if (!queue) return id;
    const name = queue.queue_name;
    const shared = queues.filter((q) => q.queue_name === name).length > 1;
    return shared || /@|->/.test(name) ? id : name;
  }

  // The queues in the charts' order, then the quiet ones; at first the most urgent queue
  // receives and the charted queue least in need gives.
  function populateWhatIf(charted, quiet) {
    const queues = [...charted, ...quiet];
    const wanted = queues.map((q) => q.queue).join("\n");
    for (const select of [$("#what-if-queue"), $("#what-if-from")]) {
      if (select.dataset.queues === wanted) continue;
      const first = select.dataset.queues == null;
      const value = first && queues.length > 0
        ? (select.id === "what-if-from" && charted.length > 1 ? charted[charted.length - 1] : queues[0]).queue
        : select.value;
      select.replaceChildren(...queues.map((q) => {
        const option = document.createElement("option");
        option.value = q.queue;
        option.textContent = q.queue_name;
        return option;
      }));
      select.dataset.queues = wanted;
      if (queues.some((q) => q.queue === value)) select.value = value;
    }
    const start = $("#what-if-start"), end = $("#what-if-end");
    if (!start.value && !end.value) {
      const next = (Math.floor(intraday.minute / 15) + 1) * 15;
      start.value = dayClock(next);
      end.value = dayClock(next + 60);
    }
  }

  function renderWhatIf() {
    const table = $("#what-if-table"), error = $("#what-if-error");
    error.hidden = whatIfError == null;
    error.textContent = whatIfError == null ? "" : `${t("refused")} ${whatIfError}`;
    table.hidden = whatIf == null;
    if (!whatIf) return;
    const order = [whatIf.to, whatIf.from].filter((id) => id != null);
    const queues = whatIf.outlook.queues.filter((q) => order.includes(q.queue))
      .sort((a, b) => order.indexOf(a.queue) - order.indexOf(b.queue));
    const rows = [];
    for (const queue of queues) {
      for (const s of queue.slots) {
        if (!s.what_if) continue;
        const row = document.createElement("tr");
        row.dataset.queueId = queue.queue;
        row.dataset.slot = s.slot;
        cell(row, queue.queue_name);
        cell(row, s.start);
        cell(row, figure(s.staffed), "number without");
        cell(row, figure(s.what_if.staffed), "number with");
        cell(row, percent(s.service_level), "number without");
        cell(row, percent(s.what_if.service_level), "number with");
        cell(row, seconds(s.asa_s), "number without");
        cell(row, seconds(s.what_if.asa_s), "number with");
        cell(row, percent(s.abandonment), "number without");
        cell(row, percent(s.what_if.abandonment), "number with");
        rows.push(row);
      }
    }
    if (rows.length === 0) {
      const row = document.createElement("tr");
      cell(row, t("whatIfEmpty")).colSpan = 10;
      rows.push(row);
    }
    table.tBodies[0].replaceChildren(...rows);
  }

  function renderIntraday() {
    const key = `${intradayVersion}:${lang}`;
    if (intradayDrawn === key) return;
    intradayDrawn = key;
    renderShortfallBanner();
    const section = $("#intraday-section");
    if (!intraday) { section.hidden = true; return; }
    section.hidden = false;
    const target = intraday.target;
    const source = intraday.plan.source === "stored" ? `${t("storedPlan")} ${intraday.plan.plan_id}` : t("forecastFromHistory");
    $("#intraday-summary").textContent = [
      `${intraday.date} ${minuteClock(intraday.minute)}`,
      `${t("target")} ${Math.round(target.service_level * 100)}/${target.threshold_s}`,
      t(intraday.staffed_from === "floor" ? "staffedFromFloor" : "staffedFromPlan"), source,
    ].join(" · ");
    renderLegend();
    const charted = intraday.queues.filter((q) => q.slots.some(busySlot));
    const byUrgency = (a, b) => (b.misses_target_next_hour - a.misses_target_next_hour) ||
      ((b.shortfall_next_hour ?? -Infinity) - (a.shortfall_next_hour ?? -Infinity)) ||
      (a.queue_name < b.queue_name ? -1 : a.queue_name > b.queue_name ? 1 : 0);
    const cards = charted.sort(byUrgency).map((queue) => {
      const card = document.createElement("article");
      card.className = "intraday-queue";
      card.dataset.queueId = queue.queue;
      card.classList.toggle("misses", queue.misses_target_next_hour);
      const heading = document.createElement("h3");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = queue.queue_name;
      heading.appendChild(name);
      if (queue.misses_target_next_hour) {
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.textContent = `▼ ${t("missesTarget")}`;
        heading.appendChild(mark);
      }
      card.appendChild(heading);
      const facts = document.createElement("p");
      facts.className = "facts";
      const ratio = (value) => value == null ? "–" : `×${value.toFixed(2)}`;
      const parts = [`${t("level")} ${ratio(queue.volume_ratio)}`, `${t("handleTime")} ${ratio(queue.handle_time_ratio)}`];
      if (queue.shortfall_next_hour != null) parts.push(`${t("shortNextHour")} ${figure(Math.max(0, queue.shortfall_next_hour))}`);
      facts.textContent = parts.join(" · ");
      card.appendChild(facts);
      card.appendChild(intradayChart(queue, intraday.minute));
      return card;
    });
    $("#intraday-charts").replaceChildren(...cards);
    const quiet = intraday.queues.filter((q) => !q.slots.some(busySlot))
      .sort((a, b) => a.queue_name < b.queue_name ? -1 : a.queue_name > b.queue_name ? 1 : 0);
    const quietLine = $("#intraday-quiet");
    quietLine.hidden = quiet.length === 0;
    quietLine.textContent = quiet.length === 0 ? ""
      : `${t("quietToday")} (${quiet.length}): ${quiet.map((q) => q.queue_name).join(", ")}`;
    populateWhatIf(charted, quiet);
    renderWhatIf();
  }

  async function loadIntraday() {
    try {
      const response = await fetch("/v1/staffing/intraday", { headers: authorization() });
      if (response.ok) { intraday = await response.json(); intradayVersion++; renderIntraday(); }
    } catch (_) { /* shown again at the next attempt */ }
  }

  // Just after the next 15 minutes close (time zones' offsets are whole quarters of an hour).
  function scheduleSlotClose() {
    const slot = 15 * 60 * 1000;
    setTimeout(() => { loadIntraday(); scheduleSlotClose(); }, slot - (Date.now() % slot) + 2000);
  }

  $("#what-if-kind").addEventListener("change", () => {
    $("#what-if-from-label").hidden = $("#what-if-kind").value !== "move";
  });
  $("#what-if").addEventListener("submit", async (event) => {
    event.preventDefault();
    const kind = $("#what-if-kind").value, to = $("#what-if-queue").value, from = $("#what-if-from").value;
    const agents = $("#what-if-agents").value.trim();
    const span = `${$("#what-if-start").value.trim()}-${$("#what-if-end").value.trim()}`;
    const query = kind === "move"
      ? `move_agents=${encodeURIComponent(`${agents}:${queueLabel(from)}->${queueLabel(to)}@${span}`)}`
      : `queue=${encodeURIComponent(queueLabel(to))}&add_agents=${encodeURIComponent(`${agents}@${span}`)}`;
    const button = $("#what-if-submit");
    button.disabled = true;
    try {
      const response = await fetch(`/v1/staffing/intraday?${query}`, { headers: authorization() });
      if (response.ok) {
        whatIf = { outlook: await response.json(), to, from: kind === "move" ? from : null };
        whatIfError = null;
      } else {
        let reason = `HTTP ${response.status}`;
        try { reason = (await response.json()).reason || reason; } catch (_) { /* not JSON */ }
        whatIf = null;
        whatIfError = reason;
      }
    } catch (error) {
      whatIf = null;
      whatIfError = String(error);
    } finally {
      button.disabled = false;
    }
    intradayVersion++;
    renderIntraday();
  });

  // A busy floor sends many deltas a second: fold them all, draw once per frame.
  let renderPending = false;
  function scheduleRender() {
    if (renderPending) return;
    renderPending = true;
    requestAnimationFrame(() => { renderPending = false; render(); });
  }

  // Times in status tick every second without waiting for the server.
  setInterval(() => {
    for (const element of document.querySelectorAll(".ticking")) {
      if (element.dataset.since) element.textContent = elapsed(element.dataset.since);
    }
    if (view && view.summary.oldestWaitSince) $("#tile-oldestWait").textContent = elapsed(view.summary.oldestWaitSince);
    // Heartbeats come every 15 s: a silent stream is a dead one.
    if (socket && live && Date.now() - lastMessageAt > 40000) socket.close();
  }, 1000);

  function streamURL() {
    const query = new URLSearchParams();
    if (token) query.set("token", token);
    if (seq != null && epoch) query.set("since", `${epoch}:${seq}`);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/v1/floor/stream?${query}`;
  }

  function connect() {
    socket = new WebSocket(streamURL());
    socket.onmessage = (event) => {
      lastMessageAt = Date.now();
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") {
        view = message.view; seq = message.seq; epoch = message.epoch;
      } else if (message.type === "delta") {
        if (!view || message.epoch !== epoch || message.seq !== seq + 1) {
          // A gap: never guess. Start over from a snapshot.
          seq = null; epoch = null; socket.close(); return;
        }
        applyDelta(message.delta); seq = message.seq;
      } else {
        return void (!live && setLive(true));
      }
      retryDelay = 1000;
      live = true;
      scheduleRender();
    };
    socket.onclose = () => {
      socket = null;
      setLive(false);
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 10000);
    };
    socket.onerror = () => socket && socket.close();
  }

  async function loadToday() {
    try {
      const response = await fetch("/v1/floor/today", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (response.ok) { today = await response.json(); render(); }
    } catch (_) { /* shown again at the next attempt */ }
  }

  $("#language").addEventListener("click", () => {
    lang = lang === "ja" ? "en" : "ja";
    localStorage.setItem("switchboard.lang", lang);
    render();
  });
  render();
  loadToday();
  setInterval(loadToday, 10 * 60 * 1000);
  loadStaffing();
  // Staffed now follows the floor: the panel asks every 15 s (the forecast behind it changes
  // at most every 5 minutes and is not read again in between).
  setInterval(loadStaffing, 15 * 1000);
  // The reforecast follows every contact: asked every minute, and just after each 15 minutes
  // close (the closed slot's actuals are then in).
  loadIntraday();
  setInterval(loadIntraday, 60 * 1000);
  scheduleSlotClose();
  connect();
})();

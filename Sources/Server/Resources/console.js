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
      const now = bySlot.get(slot);
      const needed = now && now.agents != null ? now.agents : 0;
      neededTotal += now && now.fractional_agents != null ? now.fractional_agents : 0;
      const next = [];
      for (let n = slot + 1; n <= slot + 12; n++) {
        const s = bySlot.get(n);
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

  async function loadStaffing() {
    try {
      const response = await fetch("/v1/staffing", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (response.ok) { staffing = await response.json(); render(); }
    } catch (_) { /* shown again at the next attempt */ }
  }

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
  connect();
})();

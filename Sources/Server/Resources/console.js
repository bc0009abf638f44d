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
    },
  };
  let lang = params.get("lang") || localStorage.getItem("switchboard.lang") ||
    ((navigator.language || "").startsWith("ja") ? "ja" : "en");
  const t = (key) => (labels[lang] && labels[lang][key]) || labels.en[key] || key;
  // Agent activities (Connect's Agent Activity) whose names other labels already use.
  const activityLabel = (activity) => t({ connecting: "activityConnecting", error: "activityError" }[activity] || activity);

  // The folded stream.
  let view = null, seq = null, epoch = null, live = false, today = null;
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

    const levels = $("#service-levels");
    levels.replaceChildren(...view.queues.map((queue) => {
      const tile = document.createElement("div");
      tile.className = "tile sl";
      tile.dataset.queueId = queue.id;
      const value = document.createElement("span");
      value.className = "value" + (queue.serviceLevel != null && queue.serviceLevel < 0.8 ? " low" : "");
      value.textContent = percent(queue.serviceLevel);
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = `${t("serviceLevelToday")} · ${queue.name} (${view.serviceLevelThresholdSeconds}s)`;
      tile.append(value, label);
      return tile;
    }));

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
  connect();
})();

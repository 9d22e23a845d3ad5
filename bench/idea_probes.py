"""In-page probes (JavaScript) for the IdeA window and the reference page; see idea_cell.py."""

# Flood: t0 = keydown of Enter; arrival = the marker seen in a push; parsed = the buffer text
# contains it (checked when the page is idle, since one textOf over 10k lines costs ms);
# ctrlc = keydown of Ctrl+C in that terminal (the marker is then the shell prompt); feedEmpty =
# frames before the arrival at which the page's feed (`__ideaFeed`, IdeA only) held nothing of
# the terminal, queued or parsing: the page waited for output (ADR 008 *Later*).
FLOOD_JS = r"""
({sid, marker}) => {
  const mine = (e) => !!e.target.closest?.(`[data-session-id="${sid}"]`);  // keys into this terminal
  const st = window.__benchFlood = {t0: null, arrive: null, parsed: null, painted: null, ctrlc: null,
    frames: 0, maxGap: 0, frameGaps: [], chars: 0, pushes: 0, pushMs: 0, gaps: [], acks: [], perSecond: [],
    textCostMs: null, floodFrames: 0, feedEmpty: window.__ideaFeed ? 0 : null};
  const orig = window.__ideaPush;  // chained: probes stack
  const api = window.pywebview.api.terminals;  // the gateway looks methods up on every call
  const running = () => st.t0 !== null && st.painted === null;
  for (const name of ['ack', 'ackMany']) {  // batched acks go through ackMany
    const key = '__benchOrig_' + name;
    const ack = api[key] ??= api[name];
    if (!ack) continue;
    api[name] = (...args) => {
      const t = performance.now(), p = ack.apply(api, args);
      if (running()) p.then(() => st.acks.push(performance.now() - t), () => {});
      return p;
    };
  }
  let tail = '', last = null;
  const frame = (last) => requestAnimationFrame((t) => {
    st.frames++; st.maxGap = Math.max(st.maxGap, t - last); st.frameGaps.push(t - last);
    const feed = window.__ideaFeed;
    if (st.arrive === null) {
      st.floodFrames++;
      if (feed && feed.queuedOf(sid) === 0 && feed.outstanding === 0) st.feedEmpty++;
    }
    if (st.painted === null) frame(t);
  });
  addEventListener('keydown', (e) => {
    if (!mine(e)) return;
    if (e.key === 'Enter' && st.t0 === null) { st.t0 = performance.now(); frame(st.t0); }
    if (e.ctrlKey && e.key === 'c' && st.ctrlc === null) st.ctrlc = performance.now();
  }, true);
  const check = () => requestIdleCallback(() => {
    const t = performance.now();
    const seen = window.__ideaTerminalText(sid).includes(marker);
    st.textCostMs = performance.now() - t;
    if (!seen) return check();
    st.parsed = t;
    requestAnimationFrame(() => { st.painted = performance.now(); });
  }, {timeout: 20});
  window.__ideaPush = (batch) => {
    const t = performance.now(), result = orig(batch);
    const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid];
    if (text && st.t0 !== null && st.arrive === null) {
      st.chars += text.length; st.pushes++; st.pushMs += performance.now() - t;
      if (last !== null) st.gaps.push(t - last);
      const second = Math.floor((t - st.t0) / 1000);
      st.perSecond[second] = (st.perSecond[second] || 0) + text.length;
      last = t;
      const s = tail + text;
      tail = s.slice(-marker.length);
      if (s.includes(marker)) { st.arrive = performance.now(); check(); }
    }
    return result;
  };
}
"""

# Keystrokes at a `cat > /dev/null` prompt: t0 = keydown of `x`; arrival = a push with an `x`;
# parsed = the last buffer line is n x's, checked in the push itself (xterm.js parses a write
# right after user input synchronously, and the page writes an echo at once: ADR 020), else in
# later tasks. A check only in a later task (setTimeout) measured, during a flood, the wait for
# that task behind the flood's parse tasks, a wait the echo itself does not have: the
# reference page reads the same moment from xterm.js's write callback.
KEYS_JS = r"""
({sid}) => {
  const mine = (e) => !!e.target.closest?.(`[data-session-id="${sid}"]`);
  const k = window.__benchKey = {active: true, n: 0, t0: 0, arrive: null, during: false,
    results: [], waiters: []};
  const flooding = () => { const f = window.__benchFlood; return !!f && f.t0 !== null && f.arrive === null; };
  const orig = window.__ideaPush;  // chained: probes stack
  addEventListener('keydown', (e) => {
    if (!k.active || e.key !== 'x' || !mine(e)) return;
    k.n++; k.t0 = performance.now(); k.arrive = null; k.during = flooding();
  }, true);
  const lastLine = () => {
    const t = window.__ideaTerminalText(sid);
    return t.slice(t.lastIndexOf('\n') + 1);
  };
  const parsedNow = (n) => {  // true once keystroke n's echo is in the buffer (recorded then)
    if (k.n !== n) return true;  // a newer keystroke took over
    const line = lastLine();
    if (!(/^x+$/.test(line) && line.length >= n)) return false;
    const parsed = performance.now();
    requestAnimationFrame(() => {
      const painted = performance.now();
      k.results.push({arrive: k.arrive - k.t0, parsed: parsed - k.t0, painted: painted - k.t0,
        duringFlood: k.during});
      k.waiters.splice(0).forEach((w) => w());
    });
    return true;
  };
  const check = (n) => setTimeout(() => { if (!parsedNow(n)) check(n); }, 0);
  window.__ideaPush = (batch) => {
    const result = orig(batch);
    const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid];
    if (k.active && text && k.arrive === null && text.includes('x')) {
      k.arrive = performance.now();
      if (!parsedNow(k.n)) check(k.n);
    }
    return result;
  };
}
"""

# Resolves once the page recorded ``n`` keystroke results (shared with the reference page).
WAIT_KEY_JS = """(n) => new Promise((resolve, reject) => {
  const k = window.__benchKey;
  if (k.results.length >= n) return resolve();
  k.waiters.push(resolve);
  setTimeout(() => reject(new Error('no echo for keystroke ' + n)), 10000);
})"""

# IdeA's own share of an echo: the bench writes a byte to the session's PTY slave (as the tty
# echo would) at a wall-clock time; the page notes the wall-clock time it arrives in a push.
OWN_SHARE_JS = r"""
({sid, marker}) => {
  const st = window.__benchOwn = {arrivals: []};
  const orig = window.__ideaPush;
  window.__ideaPush = (batch) => {
    const result = orig(batch);
    const text = (typeof batch === 'string' ? JSON.parse(batch) : batch)?.output?.[sid];
    if (text && text.includes(marker)) st.arrivals.push(performance.timeOrigin + performance.now());
    return result;
  };
}
"""

RENDERER_JS = """(sid) => {
  const el = document.querySelector(`[data-testid="terminal"][data-session-id="${sid}"]`);
  if (el.querySelector('.xterm-rows')) return 'dom';
  return el.querySelector('.xterm-screen canvas') ? 'webgl' : 'unknown';
}"""

/* The side panel of a plain kernel's page, with the window's draw_plain.c's wording: the file,
 * the pass shown and its launch, the device, the order its work-groups started in and the
 * findings by kind (in a split view both orders and whether their outputs differ); the
 * inspector of the hovered pixel and the focused work-group (its rectangles, its record on the
 * launch's clock, its state at the tick, the findings that name it), and of the finding
 * hovered or selected, placed in time (who did what to which element, at which lines, while
 * running which ticks); every finding's line; the source pane (the kernel's lines, each with
 * its findings by kind and count, the selected finding's lines marked); the overlay's legend.
 * Builds strings from the page's state; its handlers (click, over) change only what the
 * panel selects: the tab, the finding, the source line. */
'use strict';

const tsPlainPanel = (() => {
  const { esc, line, head, plural } = tsPanel;
  const TINT_CLASS = ['', 'tint1', 'tint2'];
  const STATE = ['not started', 'running, before its first barrier', 'running, past a barrier', 'done'];

  const size = (v, dims) => v.slice(0, Math.max(1, dims)).join('x');
  const rect = (r) => `x ${r.x}..${r.x + r.w - 1}, y ${r.y}..${r.y + r.h - 1} (${r.w}x${r.h} px)`;

  /* An order in a few words: "order reverse", "device's order". */
  const shortOrder = (o) => {
    const m = /\(--order ([^)]*)\)/.exec(o);
    return m ? `order ${m[1]}` : o.replace(/^the /, '').replace(/, .*$/, '');
  };

  /* A split view's two orders and whether their outputs differ (the window's words). */
  function split(run) {
    const j = run.j, out = [head('split view: one kernel in two orders')];
    out.push(line('', `left:  ${j.order}`));
    out.push(line('', `right: ${run.twin.j.order}`));
    out.push(line(j.differ > 0 ? 'warn' : j.differ === 0 ? 'seen' : 'dim', j.differ_text));
    out.push(line('dim small', 'one slider steps both; each pane shows its run at that tick'));
    return out.join('');
  }

  function launch(run, S) {
    const j = run.j, p = run.pass, P = run.passes[p], np = run.passes.length, out = [];
    out.push(`<div class="ln acc head title">${esc(j.file)}</div>`);
    out.push(line('dim', j.launched ? `a plain kernel as ${j.launched} launches it, observed access by access`
                                    : 'a plain kernel, observed access by access'));
    if (run.split) out.push(split(run));
    out.push('<div class="gap"></div>');
    out.push(line('', `pass ${p + 1} of ${np}: ${P.entry}${np > 1 ? '   p: the next' : ''}`));
    out.push(line('', `global ${size(P.global, P.dims)}, local ${size(P.local, P.dims)}`));
    out.push(line('', P.dims >= 2 ? `${plural(P.n, 'work-group', 'work-groups')} (${size(P.ngroups, P.dims)})`
                                  : plural(P.n, 'work-group', 'work-groups')));
    out.push(P.tile[0] > 0 ? line('', `declared tile ${P.tile[0]}x${P.tile[1]}, halo ${P.tile[2]}`)
                           : line('dim', 'no tile declared (tile=WxH halo=N)'));
    if (!P.ww.some((w) => w > 0)) out.push(line('dim', 'its work-groups wrote none of the output (a temporary): hover their bars below'));
    if (p < np - 1) out.push(line('dim', 'the output pixels that later passes write are not there yet'));
    out.push(head('run'));
    out.push(line('', `output ${run.W}x${run.H}, ${plural(j.out.c, 'channel', 'channels')}, shown ${j.out.mapping}`));
    out.push(line('', `OpenCL: ${j.device}`));
    out.push(line('', `work-groups in ${j.order}`));
    out.push(line('', `${P.ticks} ticks: one each group's start, barrier and end`));
    if (P.late) out.push(line('warn', `${plural(P.late, 'work-group', 'work-groups')} stopped waiting for their turn: the order was not kept`));
    out.push(line('dim', `observed run ${P.ms.toFixed(3)} ms`));
    const c = run.counts(p, S.tick);
    out.push(line('', `at tick ${S.tick}: ${c[3]} done, ${c[1] + c[2]} running (${c[2]} past a barrier), ${c[0]} not started`));
    out.push(head('findings (observed accesses)'));
    let any = false;
    j.kinds.forEach((k) => {
      if (!k.count) return;
      any = true;
      out.push(`<div class="ln"><b class="sw pl-t${k.tint}"></b> ${esc(k.name)}: ${k.count}</div>`);
    });
    if (!any) out.push(line('seen', 'none: every access was in order'));
    const n = [0, 0, 0];
    for (let g = 0; g < P.n; g++) n[P.tint[g]]++;
    out.push(line(n[1] || n[2] ? 'warn' : 'dim', `work-groups with findings in this pass: ${n[2]} red, ${n[1]} orange`));
    return out.join('');
  }

  /* A group's record on the launch's clock (panel_record). */
  function record(run, S, p, g) {
    const P = run.passes[p], out = [];
    if (!P.start[g]) return line('warn', '  never started (the launch was let go before its turn)');
    const as = P.as[g] !== g ? `, launched as ${run.name(p, P.as[g])}` : '';
    out.push(line('', `  started ${P.ticket[g] + 1} of ${P.n}${as}`));
    out.push(P.end[g] ? line('', `  ticks ${P.start[g]}..${P.end[g]} (${P.end[g] - P.start[g]}), polls waited for its turn: ${P.spins[g]}`)
                      : line('warn', `  ticks ${P.start[g]}.., never ended; polls waited for its turn: ${P.spins[g]}`));
    const nb = P.nbar[g], bars = [];
    for (let b = 0; b < Math.min(nb, TS_PLAIN_BARS); b++) bars.push(P.bar[g * TS_PLAIN_BARS + b]);
    out.push(nb ? line('barrier', `  ${plural(nb, 'barrier', 'barriers')}, at tick${nb > 1 ? 's' : ''} ${bars.join(', ')}${nb > TS_PLAIN_BARS ? ', ...' : ''}`)
                : line('dim', '  no barrier'));
    const st = run.state(p, g, S.tick);
    out.push(line('pl-s' + st, `  at tick ${S.tick}: ${STATE[st]}`));
    return out.join('');
  }

  /* Output pixel (px, py) of run r at the tick in words: its values, or when it shows. */
  function outWords(r, S, px, py) {
    const i = py * r.W + px, m = r.shownMap(r.pass)[i];
    return r.committed(i, S.tick) ? r.valueText(px, py)
           : m ? `not yet (at tick ${m - 1}; then ${r.valueText(px, py)})`
           : r.laterWrites(px, py) ? 'not yet (a later pass writes it)' : 'never (its work-group never ended)';
  }

  const ACC = { 1: 'read', 2: 'wrote', 3: 'updated', 4: 'updated atomically' };
  const OACC = { 1: 'read it', 2: 'wrote it too', 4: 'updated it atomically' };

  /* Group g's running interval in pass p of run r: "ticks 3-7". */
  function ticks(r, p, g) {
    const P = r.passes[p];
    return !P.start[g] ? 'never started' : P.end[g] ? `ticks ${P.start[g]}-${P.end[g]}` : `ticks ${P.start[g]}-, never ended`;
  }

  /* How two groups' intervals of run r lie: one ran first, or they overlap. */
  function overlap(r, p, a, b, an, bn) {
    const P = r.passes[p];
    if (!P.start[a] || !P.start[b]) return 'one of them never started';
    if (P.end[a] && P.end[a] < P.start[b]) return `${an} ended (tick ${P.end[a]}) before ${bn} started (${P.start[b]}): here ${an}'s access came first`;
    if (P.end[b] && P.end[b] < P.start[a]) return `${bn} ended (tick ${P.end[b]}) before ${an} started (${P.start[a]}): here ${bn}'s access came first`;
    return 'they ran at the same time: either access may have come first';
  }

  /* Finding i placed in time: who did what to which element at which line, while running
   * which ticks, and the race's other access; in a split view the other order's ticks. */
  function placed(run, i) {
    const f = run.findings[i], p = f.pass, pl = (f.places || [])[0], k = run.j.kinds[f.kind];
    const out = [head(`finding: ${k.name}${f.count > 1 ? `, ${f.count} times` : ''}`)];
    if (!pl) return out.concat(line('dim', f.text)).join('');
    const cls = TINT_CLASS[k.tint], el = f.access ? `${f.access}, ${pl.el},` : pl.el;
    const a = `work-group ${pl.gn}`;
    out.push(line(cls, `${a} item ${pl.in} ${ACC[pl.acc] || 'accessed'} ${el} at line ${f.line} while running ${ticks(run, p, pl.g)};`));
    const at = pl.oline > 0 ? ` at line ${pl.oline}` : '';
    if (f.kind === TS_FIND_RACE_GROUPS) {
      const b = pl.og >= 0 ? `work-group ${pl.ogn}` : 'several other work-groups';
      out.push(line('waiters', `${b} ${OACC[pl.oacc] || 'accessed it'}${at}${pl.og >= 0 ? `, ${ticks(run, p, pl.og)}` : ''}`));
      if (pl.og >= 0) {
        out.push(line('dim', `in ${shortOrder(run.j.order)}: ${overlap(run, p, pl.g, pl.og, pl.gn, pl.ogn)}`));
        if (run.twin) out.push(line('dim', `in ${shortOrder(run.twin.j.order)}: ${pl.gn} ${ticks(run.twin, p, pl.g)}, ${pl.ogn} ${ticks(run.twin, p, pl.og)}; ${overlap(run.twin, p, pl.g, pl.og, pl.gn, pl.ogn)}`));
      }
    } else if (f.kind === TS_FIND_RACE_LOCAL || f.kind === TS_FIND_RACE_GLOBAL) {
      out.push(line('waiters', `${pl.oin ? `item ${pl.oin}` : 'other work-items'} of the same group ${OACC[pl.oacc] || 'accessed it'}${at}, in the same barrier interval`));
    } else if (pl.oline > 0) {
      out.push(line('dim', `see also line ${pl.oline}`));
    }
    const more = [...new Set(f.places.slice(1).map((q) => (q.ogn ? `${q.gn} with ${q.ogn}` : q.gn)))];
    if (more.length) out.push(line('dim small', `its other first places: ${more.join(', ')}${f.count > f.places.length ? `, of ${f.count} in all` : ''}`));
    out.push(line('dim small', `outlined: ${run.findingGroups(i).map((x) => run.name(p, x.g)).join(', ') || 'none'} (red where it is, cyan the other access); lines ${run.findingLines(i).join(' and ')} marked in the source`));
    return out.join('');
  }

  /* A source line selected: the groups its findings name. */
  function lineWords(run, l) {
    const gs = run.lineGroups(l, run.pass), out = [head(`source line ${l}`)];
    if (!gs.length) return out.concat(line('dim', 'no finding of this pass is at this line: the data names no work-group that ran it')).join('');
    out.push(line('', `work-groups its findings name (outlined yellow): ${gs.slice(0, 12).map((x) => run.name(run.pass, x.g)).join(', ')}${gs.length > 12 ? ', ...' : ''}`));
    out.push(line('dim small', 'as far as the data tells: the page keeps each finding\'s first places, not every work-item that ran the line'));
    return out.join('');
  }

  function inspector(run, S) {
    const out = [head('inspector')], h = S.hover;
    const m = run.marked(S);
    if (m && m.find >= 0) out.push(placed(run, m.find));
    else if (m) out.push(lineWords(run, m.lines[0]));
    if (h) {
      const px = Math.floor(h.x), py = Math.floor(h.y), onIn = h.pane === 0;
      if (run.split) {
        if (px >= 0 && py >= 0 && px < run.W && py < run.H) {
          const l = outWords(run, S, px, py), r = outWords(run.twin, S, px, py);
          const differ = run.valueText(px, py) !== run.twin.valueText(px, py);
          out.push(line('', `pixel (${px},${py})  left ${l}`));
          out.push(line(differ ? 'warn' : '', `${' '.repeat(`pixel (${px},${py})`.length)}  right ${r}${differ ? '  (differs at the end)' : ''}`));
        }
      } else if (onIn && !run.sameShape) {
        if (px >= 0 && py >= 0 && px < run.inW && py < run.inH) out.push(line('', `input pixel (${px},${py})  ${run.inText(px, py)}`));
      } else if (px >= 0 && py >= 0 && px < run.W && py < run.H) {
        out.push(line('', `pixel (${px},${py})  ${run.sameShape ? `in ${run.inText(px, py)}  ` : ''}out ${outWords(run, S, px, py)}`));
      }
    }
    const f = S.focus;
    if (!f) {
      out.push(line('dim', 'hover a tile; click to select its work-group; hover or click a finding'));
      return out.join('');
    }
    const p = f.pass, g = f.id, P = run.passes[p], sel = S.sel && S.sel.pass === p && S.sel.id === g;
    out.push(line(TINT_CLASS[P.tint[g]], `work-group ${run.name(p, g)}, #${g} of pass ${p + 1}${sel ? '  [selected]' : ''}`));
    out.push(P.rw[g] ? line('seen', `  read  ${rect(run.footprint(p, g))}`) : line('dim', '  read nothing of the input'));
    out.push(P.ww[g] ? line('', `  wrote ${rect(run.tile(p, g))}`) : line('dim', '  wrote nothing of the output'));
    out.push(record(run, S, p, g));
    if (run.split) {
      out.push(line('acc', `  in ${shortOrder(run.twin.j.order)} (right):`));
      out.push(record(run.twin, S, p, g));
    }
    const named = P.named.get(g) || [];
    if (named.length) out.push(head('findings that name it'));
    for (const i of named.slice(0, 8)) {
      const x = run.findings[i];
      out.push(line(TINT_CLASS[run.j.kinds[x.kind].tint] + ' small', x.text));
    }
    if (named.length > 8) out.push(line('dim', `  ... and ${named.length - 8} more`));
    /* findings keep their first places only: one made here that names other groups first */
    let others = P.kinds[g];
    for (const i of named) others &= ~(1 << run.findings[i].kind);
    const made = run.j.kinds.filter((k, i) => (others >>> i) & 1);
    if (made.length) out.push(head('made here too (their lines name others)'));
    for (const k of made) out.push(line(TINT_CLASS[k.tint], `  ${k.name}`));
    if (!named.length && !made.length) out.push(line('dim', 'no finding names it'));
    return out.join('');
  }

  /* Every finding's line, the pass shown's first; each hovered or clicked marks its groups,
   * its intervals and its lines (a click keeps it). */
  function list(run, S) {
    const F = run.findings;
    if (!F.length) return '';
    const out = [head(`${plural(F.length, 'finding', 'findings')}: hover or click one to place it`)];
    const order = F.map((f, i) => i).sort((a, b) => (F[a].pass !== run.pass) - (F[b].pass !== run.pass) || a - b);
    for (const i of order.slice(0, 200)) {
      const f = F[i], pass = run.passes.length > 1 ? `pass ${f.pass + 1}: ` : '';
      const on = S.pfind === i ? ' picked' : '';
      out.push(`<div class="ln ${TINT_CLASS[run.j.kinds[f.kind].tint]} small finding${on}" id="finding-${i}" data-find="${i}">${esc(pass + f.text)}</div>`);
    }
    if (F.length > 200) out.push(line('dim', `... and ${F.length - 200} more`));
    return out.join('');
  }

  /* The source pane: each line with its number, a line with findings tinted by the worst of
   * them and followed by its kinds and counts, the marked finding's lines (or the selected
   * line) lit; a click on a line selects it. */
  function source(run, S) {
    const L = run.srcLines(), marks = run.lineMarks(), m = run.marked(S), lit = new Set(m ? m.lines : []);
    if (!L.length) return line('dim', 'the page holds no source for this kernel');
    const withF = [...marks.keys()].filter((l) => marks.get(l).own.length).length;
    const out = [head(`source: ${run.j.source.name}, ${plural(L.length, 'line', 'lines')}, ${withF} with findings`),
                 line('dim small', 'click a line: the work-groups its findings name')];
    const w = String(L.length).length, rows = [];
    L.forEach((text, k) => {
      const n = k + 1, mk = marks.get(n);
      let tint = 0;
      if (mk) for (const kind of mk.kinds.keys()) tint = Math.max(tint, run.j.kinds[kind].tint);
      const cls = `src-ln${mk && mk.own.length ? ` src-f${tint}` : ''}${lit.has(n) ? ' src-lit' : ''}${S.pline === n ? ' src-sel' : ''}`;
      rows.push(`<div class="${cls}" id="src-line-${n}" data-line="${n}"><span class="src-no">${String(n).padStart(w)}</span>${esc(text) || ' '}</div>`);
      if (!mk) return;
      /* a note a kind, and one for the races whose other access is here */
      const notes = [...mk.kinds].map(([kind, c]) => `<span class="${TINT_CLASS[run.j.kinds[kind].tint]}"><b class="sw pl-t${run.j.kinds[kind].tint}"></b> ${esc(run.j.kinds[kind].name)} \u00d7${c}</span>`);
      if (mk.others.length) notes.push(`<span class="waiters">other access of ${mk.others.length > 1 ? `${mk.others.length} races` : 'the race'} at line ${[...new Set(mk.others.map((i) => run.findings[i].line))].join(', ')}</span>`);
      for (const t of notes) rows.push(`<div class="src-note" data-line="${n}">${' '.repeat(w + 1)}${t}</div>`);
    });
    out.push(`<div id="src" class="src">${rows.join('')}</div>`);
    return out.join('');
  }

  /* The panel's tabs: the run, or the kernel's source. */
  function tabs(run, S) {
    const src = !!S.srcTab;
    return `<button id="tab-run" data-tab="run" class="${src ? '' : 'on'}">run</button>` +
           `<button id="tab-source" data-tab="source" class="${src ? 'on' : ''}">source${run.findings.length ? ` (${plural(run.findings.length, 'finding', 'findings')})` : ''}</button>`;
  }

  /* A click in the panel: a tab; a finding (again: let go), which shows its lines in the
   * source; a source line (again: let go). Whether anything changed. */
  function click(target, run, S) {
    const el = target && target.closest ? target.closest('[data-tab],[data-find],[data-line]') : null;
    if (!el) return false;
    if (el.dataset.tab) {
      S.srcTab = el.dataset.tab === 'source';
    } else if (el.dataset.find !== undefined) {
      const i = Number(el.dataset.find), f = run.findings[i];
      S.pfind = S.pfind === i ? -1 : i;
      S.pline = 0;
      if (S.pfind >= 0) {
        S.srcTab = true;
        if (f.pass !== run.pass) run.pass = f.pass;
      }
      keepScroll(S.pfind >= 0 ? f.line : 0);
      return true;
    } else {
      const l = Number(el.dataset.line);
      S.pline = S.pline === l ? 0 : l;
      S.pfind = -1;
    }
    keepScroll(0);
    return true;
  }

  /* The source pane is drawn anew when what it marks changes: once drawn (before the frame is
   * shown), it keeps where it was scrolled to, or puts line l a third of the way down. */
  function keepScroll(l) {
    const box = document.getElementById('src'), top = box ? box.scrollTop : 0;
    requestAnimationFrame(() => {
      const b = document.getElementById('src'), e = l ? document.getElementById(`src-line-${l}`) : null;
      if (b) b.scrollTop = e ? Math.max(0, e.offsetTop - b.clientHeight / 3) : top;
    });
  }

  /* The mouse over the panel (target null: it left): the finding under it is hovered. */
  function over(target, run, S) {
    const el = target && target.closest ? target.closest('[data-find]') : null;
    const i = el ? Number(el.dataset.find) : -1, was = S.pfindHover === undefined ? -1 : S.pfindHover;
    S.pfindHover = i;
    if (i !== was) keepScroll(0);
    return i !== was;
  }

  /* The panes' titles in a split view: each order and its run's tick. */
  function titles(run, S) {
    if (!run.split) return null;
    const t = (r) => `${Math.min(S.tick, r.length)} / ${r.length}`;
    return [`left: ${shortOrder(run.j.order)}, tick ${t(run)}`, `right: ${shortOrder(run.twin.j.order)}, tick ${t(run.twin)}`];
  }

  /* The test summary's fields of what this panel and the split view show. */
  function testFields(run, S) {
    const m = run.marked(S), marks = run.lineMarks(), tw = run.twin;
    const kinds = (l) => [...marks.get(l).kinds].map(([k, c]) => `${run.j.kinds[k].name} ${c}`).join('+');
    return [`split=${run.split ? `${run.j.order} | ${tw.j.order}` : 'none'}`,
      `differ=${run.split ? run.j.differ_text : ''}`,
      `states2=${tw ? Array.from({ length: tw.passes[tw.pass].n }, (_, g) => 'prbd'[tw.state(tw.pass, g, S.tick)]).join('') : ''}`,
      `out2=${tw ? tw.outHash(S.tick) : ''}`,
      `srclines=${run.srcLines().length}`,
      `srcmarks=${[...marks.keys()].sort((a, b) => a - b).map((l) => `${l}:${[kinds(l), marks.get(l).others.length ? 'other' : ''].filter(Boolean).join('+')}`).join(',')}`,
      `tab=${S.srcTab ? 'source' : 'run'}`,
      `marked=${m ? m.lines.join(',') : ''}`,
      `outlined=${m ? m.groups.map((x) => run.name(m.pass, x.g) + x.role).join(' ') : ''}`,
      `srclit=${[...document.querySelectorAll('#src .src-lit')].map((e) => e.dataset.line).join(',')}`,
      `titles=${$t('title-in')} | ${$t('title-out')}`, `halves=${halves()}`, `layout=${layout()}`];
  }
  const $t = (id) => (document.getElementById(id) || {}).textContent || '';

  /* An FNV-1a hash of each half of the panes' canvas: both halves drawn, and what each shows. */
  function halves() {
    const c = document.getElementById('panes'), ctx = c.getContext('2d'), half = Math.floor(c.width / 2);
    return [0, half].map((x0) => {
      const px = ctx.getImageData(x0, 0, half, c.height).data;
      let h = 0x811c9dc5;
      for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i], 0x01000193) >>> 0;
      return h.toString(16).padStart(8, '0');
    }).join(',');
  }

  /* Whether the page's parts keep to their places: the panes' titles apart, the status line
   * whole, the source pane inside the panel, the panel's tabs on one row. */
  function layout() {
    const r = (id) => { const e = document.getElementById(id); return e ? e.getBoundingClientRect() : null; };
    const a = r('title-in'), b = r('title-out'), st = document.getElementById('status'), src = r('src'), pn = r('panel');
    const tabs = [...document.querySelectorAll('#panel-tabs button')].map((e) => e.getBoundingClientRect().top);
    return [a.right <= b.left + 0.5 ? 'titles apart' : 'titles overlap',
      st.scrollWidth <= st.clientWidth + 1 ? 'status whole' : 'status cut',
      !src ? 'no source' : src.left >= pn.left && src.right <= pn.right + 0.5 ? 'source inside' : 'source outside',
      new Set(tabs).size <= 1 ? 'tabs one row' : 'tabs wrapped'].join(', ');
  }

  function legend(run, S) {
    const out = [head(`overlay: ${S.overlay === 'none' ? 'none' : `work-groups by ${S.overlay} (tile: what each wrote)`}`)];
    if (S.overlay === 'state') {
      const keys = [['pl-s0', 'not started'], ['pl-s1', 'running'], ['pl-s2', 'past a barrier'], ['pl-t0', 'done'],
                    ['pl-t1', 'uninitialised, tile'], ['pl-t2', 'race, outside, divergence']];
      out.push('<div class="keys">' + keys.map(([c, n]) => `<span><b class="sw ${c}"></b>${esc(n)}</span>`).join('') + '</div>');
      out.push(line('dim small', 'a red square: an element a finding names; the output shows a pixel once its work-group ended'));
    } else if (S.overlay === 'order') {
      out.push(`<div class="ramp"><span>0</span><i></i><span>${run.passes[run.pass].n - 1}</span></div>`);
      out.push(line('dim small', 'start order (ticket): first to last'));
    } else {
      out.push(line('dim', 'no overlay'));
    }
    return out.join('');
  }

  /* The panel's parts: [top (the run, or the source), inspector, legend, findings]. */
  function html(run, S) {
    return [S.srcTab ? source(run, S) : launch(run, S), inspector(run, S), legend(run, S), list(run, S)];
  }

  return { html, tabs, click, over, titles, testFields };
})();

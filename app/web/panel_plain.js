/* The side panel of a plain kernel's page, with the window's draw_plain.c's wording: the file,
 * the pass shown and its launch, the device, the order its work-groups started in and the
 * findings by kind; the inspector of the hovered pixel and the focused work-group (its
 * rectangles, its record on the launch's clock, its state at the tick, the findings that name
 * it); every finding's line; the overlay's legend. Builds strings from the page's state;
 * changes nothing. */
'use strict';

const tsPlainPanel = (() => {
  const { esc, line, head, plural } = tsPanel;
  const TINT_CLASS = ['', 'tint1', 'tint2'];
  const STATE = ['not started', 'running, before its first barrier', 'running, past a barrier', 'done'];

  const size = (v, dims) => v.slice(0, Math.max(1, dims)).join('x');
  const rect = (r) => `x ${r.x}..${r.x + r.w - 1}, y ${r.y}..${r.y + r.h - 1} (${r.w}x${r.h} px)`;

  function launch(run, S) {
    const j = run.j, p = run.pass, P = run.passes[p], np = run.passes.length, out = [];
    out.push(`<div class="ln acc head title">${esc(j.file)}</div>`);
    out.push(line('dim', j.launched ? `a plain kernel as ${j.launched} launches it, observed access by access`
                                    : 'a plain kernel, observed access by access'));
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

  function inspector(run, S) {
    const out = [head('inspector')], h = S.hover;
    if (h) {
      const px = Math.floor(h.x), py = Math.floor(h.y), onIn = h.pane === 0;
      if (onIn && !run.sameShape) {
        if (px >= 0 && py >= 0 && px < run.inW && py < run.inH) out.push(line('', `input pixel (${px},${py})  ${run.inText(px, py)}`));
      } else if (px >= 0 && py >= 0 && px < run.W && py < run.H) {
        const i = py * run.W + px, m = run.shownMap(run.pass)[i];
        const o = run.committed(i, S.tick) ? run.valueText(px, py)
                  : m ? `not yet (at tick ${m - 1}; then ${run.valueText(px, py)})`
                  : run.laterWrites(px, py) ? 'not yet (a later pass writes it)' : 'never (its work-group never ended)';
        out.push(line('', `pixel (${px},${py})  ${run.sameShape ? `in ${run.inText(px, py)}  ` : ''}out ${o}`));
      }
    }
    const f = S.focus;
    if (!f) {
      out.push(line('dim', 'hover a tile; click to select its work-group'));
      return out.join('');
    }
    const p = f.pass, g = f.id, P = run.passes[p], sel = S.sel && S.sel.pass === p && S.sel.id === g;
    out.push(line(TINT_CLASS[P.tint[g]], `work-group ${run.name(p, g)}, #${g} of pass ${p + 1}${sel ? '  [selected]' : ''}`));
    out.push(P.rw[g] ? line('seen', `  read  ${rect(run.footprint(p, g))}`) : line('dim', '  read nothing of the input'));
    out.push(P.ww[g] ? line('', `  wrote ${rect(run.tile(p, g))}`) : line('dim', '  wrote nothing of the output'));
    out.push(record(run, S, p, g));
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

  /* Every finding's line, the pass shown's first. */
  function list(run) {
    const F = run.findings;
    if (!F.length) return '';
    const out = [head(`${plural(F.length, 'finding', 'findings')}`)];
    const order = F.map((f, i) => i).sort((a, b) => (F[a].pass !== run.pass) - (F[b].pass !== run.pass) || a - b);
    for (const i of order.slice(0, 200)) {
      const f = F[i], pass = run.passes.length > 1 ? `pass ${f.pass + 1}: ` : '';
      out.push(line(TINT_CLASS[run.j.kinds[f.kind].tint] + ' small finding', pass + f.text));
    }
    if (F.length > 200) out.push(line('dim', `... and ${F.length - 200} more`));
    return out.join('');
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

  /* The panel's parts: [top, inspector, legend, findings]. */
  function html(run, S) {
    return [launch(run, S), inspector(run, S), legend(run, S), list(run)];
  }

  return { html };
})();

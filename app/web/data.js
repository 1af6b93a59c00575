/* The page's data as app/page_data.c writes it: typed arrays from base64 little-endian
 * integers (or one constant for all), and byte planes from base64 PNG. The PNGs are the
 * project's own (8-bit grey, not interlaced) and are decoded here, synchronously and exactly:
 * the chunks, zlib's inflate (RFC 1950/1951) and the rows' filters, so that no browser's image
 * decoding, colour management or timing stands between the data and the page. */
'use strict';

const tsData = (() => {
  function bytes(b64) {
    const s = atob(b64);
    const u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return u;
  }

  /* {n, c} or {n, t, b} -> a typed array of n numbers. */
  function array(a) {
    if (a.c !== undefined) {
      const v = Math.abs(a.c) < 2 ** 31 ? new Int32Array(a.n) : new Float64Array(a.n);
      v.fill(a.c);
      return v;
    }
    const u = bytes(a.b);
    const dv = new DataView(u.buffer);
    const n = a.n;
    let v;
    switch (a.t) {
      case 'u8': return u;
      case 'u16': v = new Uint16Array(n); for (let i = 0; i < n; i++) v[i] = dv.getUint16(2 * i, true); return v;
      case 'u32': v = new Uint32Array(n); for (let i = 0; i < n; i++) v[i] = dv.getUint32(4 * i, true); return v;
      case 'i32': v = new Int32Array(n); for (let i = 0; i < n; i++) v[i] = dv.getInt32(4 * i, true); return v;
      case 'f64': v = new Float64Array(n); for (let i = 0; i < n; i++) v[i] = dv.getFloat64(8 * i, true); return v;
    }
    throw new Error('unknown array type ' + a.t);
  }

  /* ---- inflate ---- */

  const LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  const DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                 4097, 6145, 8193, 12289, 16385, 24577];
  const DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  const CLORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  /* A canonical Huffman code as a table indexed by the next `max` bits of input (first bit
   * lowest): each entry the symbol << 4 | its length. */
  function huffman(lengths) {
    let max = 1;
    const count = new Uint16Array(16), next = new Uint16Array(16);
    for (const l of lengths) { count[l]++; if (l > max) max = l; }
    count[0] = 0;
    for (let b = 1, code = 0; b <= 15; b++) { code = (code + count[b - 1]) << 1; next[b] = code; }
    const size = 1 << max, table = new Int32Array(size);
    lengths.forEach((len, sym) => {
      if (!len) return;
      let c = next[len]++, r = 0;
      for (let k = 0; k < len; k++) { r = (r << 1) | (c & 1); c >>= 1; }
      for (let j = r; j < size; j += 1 << len) table[j] = (sym << 4) | len;
    });
    return { table, max };
  }

  let FIXED = null;

  /* The zlib stream src inflated into exactly `size` bytes. */
  function inflate(src, size) {
    const out = new Uint8Array(size);
    let pos = 2, bb = 0, bc = 0, o = 0;
    if ((src[0] & 15) !== 8 || ((src[0] << 8) | src[1]) % 31 !== 0) throw new Error('not a zlib stream');
    const need = (n) => { while (bc < n) { bb |= (pos < src.length ? src[pos] : 0) << bc; pos++; bc += 8; } };
    const bits = (n) => { need(n); const v = bb & ((1 << n) - 1); bb >>>= n; bc -= n; return v; };
    const sym = (h) => {
      need(h.max);
      const e = h.table[bb & ((1 << h.max) - 1)], len = e & 15;
      if (!len) throw new Error('a bad Huffman code');
      bb >>>= len;
      bc -= len;
      return e >> 4;
    };
    let last = 0;
    while (!last) {
      last = bits(1);
      const type = bits(2);
      if (type === 0) {
        pos -= bc >> 3;
        bb = bc = 0;
        const len = src[pos] | (src[pos + 1] << 8);
        pos += 4;
        if (o + len > size || pos + len > src.length) throw new Error('a stored block past the end');
        out.set(src.subarray(pos, pos + len), o);
        pos += len;
        o += len;
        continue;
      }
      let lit, dist;
      if (type === 1) {
        if (!FIXED) {
          const l = new Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
          FIXED = [huffman(l), huffman(new Array(30).fill(5))];
        }
        [lit, dist] = FIXED;
      } else if (type === 2) {
        const nlit = bits(5) + 257, ndist = bits(5) + 1, nclen = bits(4) + 4;
        const cl = new Array(19).fill(0);
        for (let i = 0; i < nclen; i++) cl[CLORDER[i]] = bits(3);
        const ch = huffman(cl), lens = [];
        while (lens.length < nlit + ndist) {
          const s = sym(ch);
          if (s < 16) lens.push(s);
          else if (s === 16) { const p = lens[lens.length - 1], r = 3 + bits(2); for (let i = 0; i < r; i++) lens.push(p); }
          else { const r = s === 17 ? 3 + bits(3) : 11 + bits(7); for (let i = 0; i < r; i++) lens.push(0); }
        }
        lit = huffman(lens.slice(0, nlit));
        dist = huffman(lens.slice(nlit, nlit + ndist));
      } else {
        throw new Error('a bad block type');
      }
      for (;;) {
        const s = sym(lit);
        if (s < 256) {
          if (o >= size) throw new Error('inflated past the end');
          out[o++] = s;
        } else if (s === 256) {
          break;
        } else {
          const len = LBASE[s - 257] + bits(LEXT[s - 257]);
          const d = sym(dist), back = DBASE[d] + bits(DEXT[d]);
          if (back > o || o + len > size) throw new Error('a bad back reference');
          for (let i = 0; i < len; i++, o++) out[o] = out[o - back];
        }
      }
    }
    if (o !== size) throw new Error(`inflated ${o} bytes, not ${size}`);
    return out;
  }

  /* One 8-bit grey PNG -> its w x h samples. */
  function plane(b64, w, h) {
    const u = bytes(b64);
    const be = (i) => ((u[i] << 24) | (u[i + 1] << 16) | (u[i + 2] << 8) | u[i + 3]) >>> 0;
    if (u[0] !== 0x89 || u[1] !== 0x50) throw new Error('not a PNG');
    const idat = [];
    let total = 0, pw = 0, ph = 0;
    for (let at = 8; at + 8 <= u.length;) {
      const len = be(at), type = String.fromCharCode(u[at + 4], u[at + 5], u[at + 6], u[at + 7]);
      const d = u.subarray(at + 8, at + 8 + len);
      if (type === 'IHDR') {
        pw = be(at + 8);
        ph = be(at + 12);
        if (d[8] !== 8 || d[9] !== 0 || d[12] !== 0) throw new Error('not an 8-bit grey PNG');
      } else if (type === 'IDAT') {
        idat.push(d);
        total += len;
      }
      at += 12 + len;
    }
    if (pw !== w || ph !== h) throw new Error(`a plane of ${pw}x${ph}, not ${w}x${h}`);
    const z = new Uint8Array(total);
    let k = 0;
    for (const d of idat) { z.set(d, k); k += d.length; }
    const raw = inflate(z, h * (w + 1)), out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      const f = raw[y * (w + 1)], r = y * (w + 1) + 1, o = y * w;
      for (let x = 0; x < w; x++) {
        const a = x ? out[o + x - 1] : 0, b = y ? out[o - w + x] : 0, c = x && y ? out[o - w + x - 1] : 0;
        let v = raw[r + x];
        if (f === 1) v += a;
        else if (f === 2) v += b;
        else if (f === 3) v += (a + b) >> 1;
        else if (f === 4) {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        } else if (f !== 0) throw new Error('a bad PNG filter');
        out[o + x] = v & 255;
      }
    }
    return out;
  }

  /* Planes -> one array of w x h pixels, plane k being byte k of each. */
  function interleaved(list, w, h) {
    const k = list.length, out = new Uint8Array(w * h * k);
    list.forEach((b, p) => {
      const src = plane(b, w, h);
      for (let i = 0, o = p; i < src.length; i++, o += k) out[o] = src[i];
    });
    return out;
  }

  /* Planes of the low bytes of whole numbers -> a Uint32Array. */
  function words(list, w, h) {
    const out = new Uint32Array(w * h);
    list.forEach((b, k) => {
      const src = plane(b, w, h), m = 2 ** (8 * k);
      for (let i = 0; i < src.length; i++) out[i] += src[i] * m;
    });
    return out;
  }

  return { array, interleaved, words };
})();

// Decodes a pprof file with the npm package pprof-format (not pmuscope's decoder) and
// prints the flat share of each function for sample type INDEX, one "share<TAB>name" line
// each, after checking the profile's structure: every sample has one value per sample
// type, refers to locations that exist, whose lines name functions that exist.
//   node decode.cjs NODE_MODULES FILE INDEX
const path = require('path');
const zlib = require('zlib');
const fs = require('fs');
const { Profile } = require(path.join(process.argv[2], 'pprof-format'));

const fail = (msg) => { console.error(`decode.cjs: ${process.argv[3]}: ${msg}`); process.exit(1); };
let bytes = fs.readFileSync(process.argv[3]);
if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
const p = Profile.decode(bytes);
const str = (i) => p.stringTable.strings[Number(i)];
const index = Number(process.argv[4]);
if (str(0) !== '') fail('string 0 is not ""');
if (!(index < p.sampleType.length)) fail(`no sample type ${index} (of ${p.sampleType.length})`);
const locations = new Map(p.location.map((l) => [String(l.id), l]));
const functions = new Map(p.function.map((f) => [String(f.id), f]));
const flat = new Map();
let total = 0;
for (const s of p.sample) {
  if (s.value.length !== p.sampleType.length) fail(`a sample has ${s.value.length} values`);
  for (const id of s.locationId) if (!locations.has(String(id))) fail(`no location ${id}`);
  const leaf = locations.get(String(s.locationId[0]));
  for (const l of leaf.line) if (!functions.has(String(l.functionId))) fail(`no function ${l.functionId}`);
  const name = leaf.line.length ? str(functions.get(String(leaf.line[0].functionId)).name)
                                : `0x${leaf.address.toString(16)}`;
  const v = Number(s.value[index]);
  flat.set(name, (flat.get(name) || 0) + v);
  total += v;
}
if (!p.comment.length) fail('no comment');
for (const [name, v] of flat) console.log(`${(100 * v / total).toFixed(4)}\t${name}`);

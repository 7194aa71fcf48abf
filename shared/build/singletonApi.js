// The exported API of each workspace singleton (@mizan/sdk, @mizan/i18n), as TypeScript sees it.
// A remote released on its own declares the versions it was built against and the host checks
// them (host/src/remotes/compat.ts), which only means something if every API change comes with
// a version bump. `singleton-api.json` records the API's hash for each version; the jest test
// (src/singletonApi.test.ts) fails when the API changed and the version did not.
//
//   node shared/build/singletonApi.js --update   records the current version's API (refused when
//                                                that version is recorded with another API)
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { WORKSPACE_SINGLETONS } = require('./shared');

const ROOT = path.join(__dirname, '..', '..');
const RECORD = path.join(__dirname, 'singleton-api.json');
const FLAGS = ts.TypeFormatFlags.NoTruncation;

function compilerOptions() {
  const file = path.join(ROOT, 'tsconfig.web.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

/** Type text without the machine's paths (`import("/work/...").Language` → `Language`), on one line. */
const portable = (text) =>
  text
    .replace(/import\("[^"]*"\)\./g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** `name: type` of an exported symbol, with an interface or class spelled out member by member. */
function describe(checker, name, symbol) {
  const flags = symbol.flags;
  const typeText = (type) => portable(checker.typeToString(type, undefined, FLAGS));
  const lines = [];
  if (flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    for (const member of checker.getPropertiesOfType(type)) {
      lines.push(`${name}.${member.getName()}: ${typeText(checker.getTypeOfSymbol(member))}`);
    }
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const declaration = symbol.declarations?.find(ts.isTypeAliasDeclaration);
    lines.push(`type ${name} = ${declaration ? portable(declaration.type.getText()) : '?'}`);
  }
  if (flags & ts.SymbolFlags.Value) {
    const type = checker.getTypeOfSymbol(symbol);
    lines.push(`${name}: ${typeText(type)}`);
  }
  return lines;
}

/** The sorted lines of a package's exported surface (entry `src/index.ts`). */
function apiSurface(pkg) {
  const entry = path.join(ROOT, 'shared', pkg.slice('@mizan/'.length), 'src', 'index.ts');
  const program = ts.createProgram([entry], compilerOptions());
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
  const lines = checker.getExportsOfModule(moduleSymbol).flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    return describe(checker, exported.getName(), symbol);
  });
  return [...new Set(lines)].sort();
}

function packageVersion(pkg) {
  const file = path.join(ROOT, 'shared', pkg.slice('@mizan/'.length), 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

const hashOf = (lines) => crypto.createHash('sha256').update(lines.join('\n')).digest('hex');

/** The current version, hash and surface of every workspace singleton. */
function currentApis() {
  return WORKSPACE_SINGLETONS.map((pkg) => {
    const surface = apiSurface(pkg);
    return { pkg, version: packageVersion(pkg), hash: hashOf(surface), surface };
  });
}

/** `{ [pkg]: { versions: { [version]: hash }, surface: string[] } }` as committed. */
function readRecord() {
  return fs.existsSync(RECORD) ? JSON.parse(fs.readFileSync(RECORD, 'utf8')) : {};
}

/** Why the current APIs do not match the record: one message per package, empty when they do. */
function problems(record = readRecord(), apis = currentApis()) {
  return apis.flatMap(({ pkg, version, hash, surface }) => {
    const recorded = record[pkg]?.versions?.[version];
    if (recorded === hash) return [];
    const before = new Set(record[pkg]?.surface ?? []);
    const now = new Set(surface);
    const diff = [
      ...surface.filter((line) => !before.has(line)).map((line) => `  + ${line}`),
      ...[...before].filter((line) => !now.has(line)).map((line) => `  - ${line}`),
    ].slice(0, 20);
    const hint = recorded
      ? `the API of ${pkg} changed but its version (${version}) did not: bump the version in its package.json (a 0.x minor or a major when it breaks), then run node shared/build/singletonApi.js --update`
      : `${pkg} ${version} is not recorded: run node shared/build/singletonApi.js --update`;
    return [[hint, ...diff].join('\n')];
  });
}

function update() {
  const record = readRecord();
  for (const { pkg, version, hash, surface } of currentApis()) {
    const recorded = record[pkg]?.versions?.[version];
    if (recorded && recorded !== hash) {
      throw new Error(`${pkg} ${version} is recorded with another API: bump its version first`);
    }
    record[pkg] = { versions: { ...record[pkg]?.versions, [version]: hash }, surface };
  }
  fs.writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
}

module.exports = { apiSurface, currentApis, problems, RECORD };

if (require.main === module) {
  if (process.argv[2] !== '--update') {
    const found = problems();
    for (const message of found) console.error(message);
    process.exit(found.length ? 1 : 0);
  }
  try {
    update();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

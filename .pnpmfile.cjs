// graphile-worker 0.18.0 and pg-boss 12.38.0 declare Node >= 22 but install and run on Node 20,
// where apps/bench measures them (apps/bench/README.md). `engineStrict` (pnpm-workspace.yaml)
// refuses them as published; this hook widens the engines range of exactly these two releases so
// that every other Node-22-only package is still refused.
const NODE_20_OK = new Set(['graphile-worker@0.18.0', 'pg-boss@12.38.0']);

module.exports = {
  hooks: {
    readPackage(pkg) {
      if (NODE_20_OK.has(`${pkg.name}@${pkg.version}`)) {
        pkg.engines = { ...pkg.engines, node: '>=20' };
      }
      return pkg;
    },
  },
};

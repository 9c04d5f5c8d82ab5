'use strict';
// Finds and loads the native addon of @wirecontract/node, laid out as napi-rs packages are:
// the addon of each platform ships in its own npm package (npm/<platform>/package.json, with
// `os`, `cpu` and, on Linux, `libc`), listed in this package's optionalDependencies, so npm
// installs only the one that fits. On Linux the C library is chosen at run time: glibc or musl
// (Alpine), which npm's `libc` field alone cannot tell every installer.
//
// Order: an addon built in place by build.sh (./wirecontract.node, development), then
// ./wirecontract.<platform>.node, then the package @wirecontract/node-<platform>. When none
// loads, the error names the platform and the package to install.

const PLATFORMS = new Set(['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl', 'darwin-x64', 'darwin-arm64']);

/** Whether this Linux process runs on musl: the process report names a glibc runtime version
 *  only under glibc; without a report, ldd's text says which. */
function isMusl() {
  try {
    const header = process.report && process.report.getReport().header;
    if (header) return !header.glibcVersionRuntime;
  } catch {
    // no report: fall through
  }
  try {
    return require('node:fs').readFileSync('/usr/bin/ldd', 'utf8').includes('musl');
  } catch {
    return false;
  }
}

/** The platform name of the addon that fits (linux-x64-gnu, darwin-arm64, ...). */
function platformName(platform = process.platform, arch = process.arch, musl = platform === 'linux' ? isMusl() : false) {
  return platform === 'linux' ? `${platform}-${arch}-${musl ? 'musl' : 'gnu'}` : `${platform}-${arch}`;
}

/** The npm package carrying the addon of `name`. */
function packageName(name) {
  return `@wirecontract/node-${name}`;
}

/** Loads the addon; `load` is `require` (a parameter for the tests). */
function loadNative(name = platformName(), load = require) {
  const candidates = ['./wirecontract.node', `./wirecontract.${name}.node`, packageName(name)];
  const errors = [];
  for (const c of candidates) {
    try {
      return load(c);
    } catch (e) {
      errors.push(e);
    }
  }
  // The package's own error when it was found but failed to load; else the first one.
  const real = errors.find((e) => e && e.code !== 'MODULE_NOT_FOUND') || errors[0];
  const supported = PLATFORMS.has(name)
    ? `install ${packageName(name)} (npm installs it with @wirecontract/node unless optional dependencies were left out)`
    : `no package is built for ${name} (built: ${[...PLATFORMS].join(', ')}); build the addon with bindings/node/build.sh`;
  const err = new Error(`@wirecontract/node: no native addon for ${name}: ${supported}: ${real && real.message}`);
  err.cause = real;
  throw err;
}

module.exports = { loadNative, platformName, packageName, PLATFORMS };

console.error('native-dep: WARN prebuilt binary not found for linux-x64; build from source failed: gyp ERR! find Python');
console.error('native-dep: falling back to the pure JS implementation');

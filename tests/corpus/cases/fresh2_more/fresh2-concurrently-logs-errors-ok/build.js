console.log('build: 3 bundles written');

module.exports = { impl: 'js-fallback' };

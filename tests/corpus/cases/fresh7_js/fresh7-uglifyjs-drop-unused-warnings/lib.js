(function () {
  var VERSION = '1.4.0';
  function debugDump(obj) { return JSON.stringify(obj, null, 2); }
  function legacyFormat(n) { return '' + n; }
  function sum(xs) { var t = 0; for (var i = 0; i < xs.length; i++) t += xs[i]; return t; }
  window.sum = sum;
})();

var total = 0
function add(x) { if (x == null) { return } total += x }
debugger
export { add, total }

const cfg = { port: 1, port: 2 };
debugger;
export default cfg;

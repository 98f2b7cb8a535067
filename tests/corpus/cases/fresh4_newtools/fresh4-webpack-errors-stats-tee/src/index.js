const cfg = { port: 8080,, };
export default cfg;

const { EventEmitter } = require("events");
const bus = new EventEmitter();
for (let i = 0; i < 15; i++) bus.on("msg", () => {});
for (let i = 0; i < 5; i++) process.emitWarning(`cache ${i} is stale, rebuilding`, "CacheWarning");
require("fs").readFileSync("data/input.json");

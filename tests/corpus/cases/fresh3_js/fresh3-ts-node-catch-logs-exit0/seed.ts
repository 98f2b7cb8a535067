import * as fs from "fs";
async function main(): Promise<void> {
  try {
    const users = JSON.parse(fs.readFileSync("fixtures/users.json", "utf8"));
    console.log(`seeded ${users.length} users`);
  } catch (err) {
    console.error("seed failed:", err);
  }
}
main();

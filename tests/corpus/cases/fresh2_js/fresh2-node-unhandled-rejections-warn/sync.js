async function upload(file) {
  throw new Error(`upload of ${file} failed: 403 Forbidden (bucket policy)`);
}
upload("report.pdf");
console.log("sync started");

function slug(s) {
  return s.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
module.exports = { slug };

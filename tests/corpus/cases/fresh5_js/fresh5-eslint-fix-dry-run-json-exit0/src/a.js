function total(items) {
  return itms.length;
}
total([]);

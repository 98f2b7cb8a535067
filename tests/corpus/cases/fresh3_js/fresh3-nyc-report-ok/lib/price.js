exports.price = (base, kind) => {
  if (kind === "member") return base * 0.9;
  if (kind === "staff") return base * 0.5;
  if (kind === "vip") return base * 0.7;
  return base;
};

export const formatPrice = (c) => `$${(c / 100).toFixed(2)}`;

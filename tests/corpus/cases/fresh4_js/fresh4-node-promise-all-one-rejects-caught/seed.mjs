const insert = async (row) => {
  if (row.id === 2) throw new Error(`duplicate key value violates unique constraint "users_pkey" (id=${row.id})`);
  return row.id;
};
try {
  const ids = await Promise.all([1, 2, 3].map((id) => insert({ id })));
  console.log("seeded", ids);
} catch (err) {
  console.error("seed failed:", err);
}

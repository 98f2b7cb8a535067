test('waits for ready flag', () => {
  let ready = false;
  while (!ready) { /* never set */ }
});

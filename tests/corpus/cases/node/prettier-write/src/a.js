const a = {b:1}
export default a

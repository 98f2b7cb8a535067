const a  =  {x:1,y :2}
export default a

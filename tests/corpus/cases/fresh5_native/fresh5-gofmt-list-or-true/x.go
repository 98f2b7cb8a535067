package inv
func  X( a int)int{return a}

let b:number=2

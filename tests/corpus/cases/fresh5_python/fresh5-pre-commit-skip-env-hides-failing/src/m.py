x: int = 'three'

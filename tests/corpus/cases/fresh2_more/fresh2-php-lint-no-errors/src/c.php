<?php
class C {}

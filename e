shiftgrid: error: cannot read mix.txt: No such file or directory (os error 2)

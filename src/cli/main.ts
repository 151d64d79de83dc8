process.stdout.write("runnable-blocks\n");

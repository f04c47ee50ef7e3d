from muggins.cli.main import app

app(prog_name="muggins")

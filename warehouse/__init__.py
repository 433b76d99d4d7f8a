"""SQL schema, views and schema migrations, shipped inside the package as pipeline.warehouse."""

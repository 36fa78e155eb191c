addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.4")
addSbtPlugin("pl.project13.scala" % "sbt-jmh" % "0.4.8")
